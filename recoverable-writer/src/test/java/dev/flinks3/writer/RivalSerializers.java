package dev.flinks3.writer;

import static org.assertj.core.api.Assertions.fail;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The other plugins' own serializers, each from its real 2.3.0 jar in a class loader of its own (the build
 * copies the jars to {@code target/rival-plugins}): what {@code flink-s3-fs-hadoop} and {@code
 * flink-s3-fs-native} write into a FileSink's state, for the tests to read. Reflection, because their
 * recoverables and serializers are package-private.
 */
final class RivalSerializers implements AutoCloseable {

    private final URLClassLoader loader;
    private final String plugin;

    private RivalSerializers(String plugin) throws Exception {
        this.plugin = plugin;
        Path jar = Path.of(System.getProperty("flinks3.rival.plugins.dir", "target/rival-plugins"))
                .resolve("flink-s3-fs-" + plugin + "-2.3.0.jar");
        if (!Files.isRegularFile(jar)) {
            fail("%s is missing: the build copies it there (maven-dependency-plugin, generate-test-resources)", jar);
        }
        loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, RivalSerializers.class.getClassLoader());
    }

    static RivalSerializers hadoop() throws Exception {
        return new RivalSerializers("hadoop");
    }

    static RivalSerializers nativePlugin() throws Exception {
        return new RivalSerializers("native");
    }

    /**
     * The bytes the plugin's serializer writes for a recoverable of {@code key}: {@code parts} by number and
     * ETag, {@code bytesInParts}, and an incomplete-part object ({@code null} for none, as after
     * {@code closeForCommit()}).
     */
    byte[] serialize(
            String key,
            String uploadId,
            Map<Integer, String> parts,
            long bytesInParts,
            String incompleteKey,
            long incompleteBytes)
            throws Exception {
        Object recoverable = recoverable(key, uploadId, parts, bytesInParts, incompleteKey, incompleteBytes);
        Object serializer = serializer();
        Method serialize = serializer.getClass().getMethod("serialize", Object.class);
        serialize.setAccessible(true);
        return (byte[]) serialize.invoke(serializer, recoverable);
    }

    /**
     * What the plugin's serializer makes of {@code bytes} of {@code version}.
     *
     * @throws Exception what it throws (unwrapped from reflection)
     */
    Object deserialize(int version, byte[] bytes) throws Exception {
        Object serializer = serializer();
        Method deserialize = serializer.getClass().getMethod("deserialize", int.class, byte[].class);
        deserialize.setAccessible(true);
        try {
            return deserialize.invoke(serializer, version, bytes);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    /** The version the plugin's serializer declares, which Flink stores beside the bytes. */
    int version() throws Exception {
        Object serializer = serializer();
        Method version = serializer.getClass().getMethod("getVersion");
        version.setAccessible(true);
        return (int) version.invoke(serializer);
    }

    private Object recoverable(
            String key,
            String uploadId,
            Map<Integer, String> parts,
            long bytesInParts,
            String incompleteKey,
            long incompleteBytes)
            throws Exception {
        boolean hadoop = plugin.equals("hadoop");
        Class<?> partETag = loader.loadClass(
                hadoop
                        ? "com.amazonaws.services.s3.model.PartETag"
                        : "org.apache.flink.fs.s3native.writer.NativeS3Recoverable$PartETag");
        List<Object> etags = partETags(partETag, parts);
        Class<?> type = loader.loadClass(
                hadoop
                        ? "org.apache.flink.fs.s3.common.writer.S3Recoverable"
                        : "org.apache.flink.fs.s3native.writer.NativeS3Recoverable");
        if (incompleteKey == null) {
            Constructor<?> closed = type.getDeclaredConstructor(String.class, String.class, List.class, long.class);
            closed.setAccessible(true);
            return closed.newInstance(key, uploadId, etags, bytesInParts);
        }
        Constructor<?> open = type.getDeclaredConstructor(
                String.class, String.class, List.class, long.class, String.class, long.class);
        open.setAccessible(true);
        return open.newInstance(key, uploadId, etags, bytesInParts, incompleteKey, incompleteBytes);
    }

    private static List<Object> partETags(Class<?> partETag, Map<Integer, String> parts) throws Exception {
        Constructor<?> make = partETag.getDeclaredConstructor(int.class, String.class);
        make.setAccessible(true);
        List<Object> etags = new ArrayList<>();
        for (Map.Entry<Integer, String> part : parts.entrySet()) {
            etags.add(make.newInstance(part.getKey(), part.getValue()));
        }
        return etags;
    }

    private Object serializer() throws Exception {
        String serializer = plugin.equals("hadoop")
                ? "org.apache.flink.fs.s3.common.writer.S3RecoverableSerializer"
                : "org.apache.flink.fs.s3native.writer.NativeS3RecoverableSerializer";
        Field field = loader.loadClass(serializer).getDeclaredField("INSTANCE");
        field.setAccessible(true);
        return field.get(null);
    }

    @Override
    public void close() throws Exception {
        loader.close();
    }
}
