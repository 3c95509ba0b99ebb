package dev.flinks3.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The S3 API calls our plugin makes, read from the transfer module's source (every S3 request goes
 * through its SDK client and Transfer Manager), and the IAM actions that authorize them
 * ("Actions, resources, and condition keys for Amazon S3" in the IAM service authorization reference).
 */
final class S3Calls {

    static final Path TRANSFER_SOURCES = ModuleFiles.REPOSITORY.resolve("transfer/src/main/java");

    /** SDK method (S3AsyncClient or S3TransferManager) to the IAM actions it needs. */
    static final Map<String, Set<String>> IAM_ACTIONS = Map.ofEntries(
            Map.entry("headObject", Set.of("s3:GetObject")),
            Map.entry("getObject", Set.of("s3:GetObject")),
            Map.entry("downloadFile", Set.of("s3:GetObject")),
            Map.entry("listObjectsV2", Set.of("s3:ListBucket")),
            Map.entry("putObject", Set.of("s3:PutObject")),
            Map.entry("createMultipartUpload", Set.of("s3:PutObject")),
            Map.entry("uploadPart", Set.of("s3:PutObject")),
            Map.entry("completeMultipartUpload", Set.of("s3:PutObject")),
            Map.entry("copyObject", Set.of("s3:GetObject", "s3:PutObject")),
            Map.entry("uploadPartCopy", Set.of("s3:GetObject", "s3:PutObject")),
            Map.entry("deleteObject", Set.of("s3:DeleteObject")),
            Map.entry("deleteObjects", Set.of("s3:DeleteObject")),
            Map.entry("abortMultipartUpload", Set.of("s3:AbortMultipartUpload")),
            Map.entry("listParts", Set.of("s3:ListMultipartUploadParts")),
            Map.entry("listMultipartUploads", Set.of("s3:ListBucketMultipartUploads")));

    /**
     * Methods of the S3 client that send no request: {@code utilities()} builds the URLs of the GETs sent without
     * the SDK's pipeline, which are GetObject requests; {@code serviceClientConfiguration()} reads the client's own
     * settings (the attempt timeout a metadata request may still wait after an interrupt).
     */
    private static final Set<String> NOT_REQUESTS = Set.of("utilities", "serviceClientConfiguration");

    /** A call on the SDK's S3 client ({@code s3.}) or Transfer Manager ({@code transferManager.}). */
    private static final Pattern CALL = Pattern.compile("\\b(?:s3|transferManager)\\.(\\w+)\\(");

    private S3Calls() {}

    /** The S3 SDK methods called in the transfer module's main sources. */
    static Set<String> called() {
        Set<String> calls = new TreeSet<>();
        try (Stream<Path> sources = Files.walk(TRANSFER_SOURCES)) {
            sources.filter(path -> path.toString().endsWith(".java")).forEach(source -> {
                Matcher call = CALL.matcher(ModuleFiles.read(source));
                while (call.find()) {
                    if (!NOT_REQUESTS.contains(call.group(1))) {
                        calls.add(call.group(1));
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return calls;
    }
}
