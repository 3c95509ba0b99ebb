package dev.flinks3.bench.soak;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/**
 * The multipart uploads open at the S3 server under a prefix, read with ListMultipartUploads through an SDK client
 * of its own (one connection, not the plugin's), configured from the same {@code s3.*} settings the plugin gets.
 * Remembers which uploads were open at each TaskManager stop ({@link #recordStop()}), so each later listing can say
 * how many of its uploads a stop abandoned ({@link ServerSample}). Thread-safe.
 */
final class ServerUploads implements AutoCloseable {

    private final S3Client client;
    private final String bucket;
    private final String prefix;
    /** The ids of the uploads open at any TaskManager stop so far. */
    private final Set<String> openAtStops = ConcurrentHashMap.newKeySet();

    /**
     * @param flinkConf the {@code s3.endpoint}, {@code s3.region}, {@code s3.access-key}, {@code s3.secret-key}
     *     and {@code s3.path.style.access} entries (credentials from the SDK's default chain when none are given)
     * @param bucket the bucket
     * @param prefix the key prefix of the run, without a leading slash
     */
    ServerUploads(Map<String, String> flinkConf, String bucket, String prefix) {
        String accessKey = flinkConf.get("s3.access-key");
        String secretKey = flinkConf.get("s3.secret-key");
        AwsCredentialsProvider credentials = accessKey != null && secretKey != null
                ? StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey))
                : DefaultCredentialsProvider.builder().build();
        var builder = S3Client.builder()
                .credentialsProvider(credentials)
                .region(Region.of(flinkConf.getOrDefault("s3.region", "us-east-1")))
                .forcePathStyle(Boolean.parseBoolean(flinkConf.getOrDefault("s3.path.style.access", "true")));
        String endpoint = flinkConf.get("s3.endpoint");
        if (endpoint != null) {
            builder.endpointOverride(URI.create(endpoint));
        }
        this.client = builder.build();
        this.bucket = bucket;
        this.prefix = prefix;
    }

    /** The keys of the uploads open under the prefix now (one entry per upload). */
    List<String> openUploadKeys() {
        List<String> keys = new ArrayList<>();
        for (MultipartUpload upload : openUploads()) {
            keys.add(upload.key());
        }
        return keys;
    }

    /**
     * Lists the uploads open now, split by whether they were open at a stop already.
     *
     * @return the listing's figures; -1 for both if the server could not be listed
     */
    ServerSample sample() {
        long now = System.currentTimeMillis();
        try {
            long open = 0;
            long abandoned = 0;
            for (MultipartUpload upload : openUploads()) {
                open++;
                if (openAtStops.contains(upload.uploadId())) {
                    abandoned++;
                }
            }
            return new ServerSample(now, open, abandoned);
        } catch (RuntimeException e) {
            return new ServerSample(now, -1, -1);
        }
    }

    /**
     * Remembers the uploads open now as open at a TaskManager stop: call right after the stop, before the jobs
     * restart (the stopped TaskManager can start no more; the jobs' other tasks are being cancelled).
     *
     * @return how many uploads were open; -1 if the server could not be listed (nothing is remembered then)
     */
    long recordStop() {
        try {
            long open = 0;
            for (MultipartUpload upload : openUploads()) {
                openAtStops.add(upload.uploadId());
                open++;
            }
            return open;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * Aborts every upload open under the prefix and deletes every object under it (what a soak leaves at a store
     * that is not the embedded server's).
     *
     * @return the uploads aborted and the objects deleted
     */
    long[] deleteAll() {
        long aborted = 0;
        for (MultipartUpload upload : openUploads()) {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(upload.key()).uploadId(upload.uploadId()));
            aborted++;
        }
        long deleted = 0;
        for (ListObjectsV2Response page : client.listObjectsV2Paginator(
                ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).build())) {
            List<ObjectIdentifier> keys = page.contents().stream()
                    .map(o -> ObjectIdentifier.builder().key(o.key()).build())
                    .toList();
            if (!keys.isEmpty()) {
                client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(keys)));
                deleted += keys.size();
            }
        }
        return new long[] {aborted, deleted};
    }

    /** The uploads open under the prefix, every page of ListMultipartUploads (the SDK's paginator). */
    private Iterable<MultipartUpload> openUploads() {
        return client.listMultipartUploadsPaginator(ListMultipartUploadsRequest.builder()
                        .bucket(bucket)
                        .prefix(prefix)
                        .build())
                .uploads();
    }

    @Override
    public void close() {
        client.close();
    }
}
