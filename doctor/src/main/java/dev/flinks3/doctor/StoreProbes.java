package dev.flinks3.doctor;

import dev.flinks3.fs.S3ConfigOptions;
import dev.flinks3.multipart.ConditionProbes;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.PendingUpload;
import dev.flinks3.transfer.RangeRead;
import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;
import dev.flinks3.transfer.S3Settings;
import dev.flinks3.transfer.WriteCondition;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What the store lets these credentials do and which of its features the plugin can rely on, each found out by
 * one probe under a temporary prefix ({@code <prefix>/.flinks3-doctor-<random>/}) that is removed afterwards.
 * The probes go through the plugin's own object client (the requests, checksums, retries and error hints a job
 * gets) where it has the request, and through a plain SDK client for what the plugin only sends in a form that
 * hides the answer (HEAD bucket, a wrong checksum, an aws-chunked trailer, SSE headers). A 403 names the IAM
 * action the plugin needs (those of {@code k8s/aws/iam-policy.json}).
 */
final class StoreProbes {

    static final String SECTION = "store";
    static final String CLEAN_UP = "clean-up";
    private static final int MIB = 1024 * 1024;

    private final Report report;
    private final ObjectClient client;
    private final S3Client raw;
    private final S3Settings settings;
    private final S3Location base;
    private final Random random = new Random(46);
    private final boolean throughput;

    /**
     * @param client the plugin's object client, built from the same settings
     * @param raw a plain SDK client with the same endpoint, region and credentials
     * @param target the location the job uses, e.g. {@code s3://bucket/checkpoints}
     * @param throughput whether to run the {@link ThroughputProbe} too, before the clean-up
     */
    StoreProbes(
            Report report,
            ObjectClient client,
            S3Client raw,
            S3Settings settings,
            S3Location target,
            boolean throughput) {
        this.report = report;
        this.throughput = throughput;
        this.client = client;
        this.raw = raw;
        this.settings = settings;
        String prefix = target.key().isEmpty() || target.key().endsWith("/") ? target.key() : target.key() + "/";
        this.base = target.withKey(prefix + ".flinks3-doctor-" + UUID.randomUUID() + "/");
    }

    /** The temporary prefix the probes write under. */
    S3Location base() {
        return base;
    }

    /** Runs every probe, then removes what they left; a failed probe does not stop the next. */
    void run() {
        try {
            if (!headBucket()) {
                return;
            }
            list();
            S3Location object = base.withKey(base.key() + "object.bin");
            byte[] data = bytes(64 * 1024);
            if (!put(object, data)) {
                return;
            }
            checksumHeader();
            rangedGet(object, data);
            copyAndDelete(object, data.length);
            deleteObjects();
            multipart();
            abortAndListUploads();
            conditions();
            checksumVerified();
            trailer();
            listingEncoding();
            encryption(object);
            if (throughput) {
                ThroughputProbe.run(report, client, settings, base);
            }
        } finally {
            cleanUp();
        }
    }

    private boolean headBucket() {
        try {
            raw.headBucket(b -> b.bucket(base.bucket()));
            report.add(Check.ok(SECTION, "HEAD bucket", base.bucket() + " exists and answers"));
            return true;
        } catch (S3Exception e) {
            report.add(failed(
                    "HEAD bucket",
                    "s3:ListBucket",
                    e.statusCode(),
                    e.awsErrorDetails().errorCode(),
                    e));
            return e.statusCode() == 403; // forbidden HEAD: the object probes may still work
        } catch (RuntimeException e) {
            report.add(
                    Check.failure(SECTION, "HEAD bucket", CredentialChecks.firstLine(e.getMessage()), "see network"));
            return false;
        }
    }

    private void list() {
        try {
            ListPage page = client.list(base.bucket(), parentPrefix(), "/", null, 10);
            report.add(Check.ok(
                    SECTION,
                    "LIST",
                    "ListObjectsV2 under " + parentPrefix() + ": "
                            + page.objects().size() + " objects and "
                            + page.commonPrefixes().size() + " prefixes on the first page"));
        } catch (IOException e) {
            report.add(failed("LIST", "s3:ListBucket", e));
        }
    }

    private boolean put(S3Location object, byte[] data) {
        try {
            Futures.await(client.put(object, ByteBuffer.wrap(data), WriteCondition.NONE), "PutObject", object);
            report.add(Check.ok(SECTION, "PUT", data.length + " bytes written with PutObject"));
            return true;
        } catch (IOException e) {
            report.add(failed("PUT", "s3:PutObject", e));
            return false;
        }
    }

    /** The plugin's own finding from its first upload answers: does the server check x-amz-checksum-crc32c? */
    private void checksumHeader() {
        if (!settings.client().checksumsEnabled()) {
            report.add(Check.ok(
                    SECTION,
                    "checksum header",
                    "not sent (" + S3ConfigOptions.CHECKSUM_VALIDATION_ENABLED.key() + ": false)"));
        } else if (client.checksFlexibleChecksums()) {
            report.add(Check.ok(
                    SECTION,
                    "checksum header",
                    "x-amz-checksum-crc32c accepted and echoed: uploads are" + " verified by the server with CRC32C"));
        } else {
            report.add(Check.warning(
                    SECTION,
                    "checksum header",
                    "the server ignored or refused x-amz-checksum-crc32c: the plugin verifies uploads with Content-MD5"
                            + " instead (after one refused request where the server refuses the header)",
                    S3ConfigOptions.CHECKSUM_VALIDATION_ENABLED.key()
                            + ": false sends Content-MD5 from the first request"));
        }
    }

    private void rangedGet(S3Location object, byte[] data) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(1000);
            RangeRead read = Futures.await(client.readInto(object, 1000, buffer), "GetObject", object);
            byte[] got = Arrays.copyOf(buffer.array(), read.bytes());
            if (read.bytes() == 1000 && Arrays.equals(got, Arrays.copyOfRange(data, 1000, 2000))) {
                report.add(Check.ok(SECTION, "ranged GET", "bytes 1000-1999 read back exactly"));
            } else {
                report.add(Check.failure(
                        SECTION,
                        "ranged GET",
                        "bytes 1000-1999 came back as " + read.bytes() + " other bytes: the server ignores Range",
                        "a store without ranged GETs cannot serve Flink's reads; use another store or gateway"));
            }
        } catch (IOException e) {
            report.add(failed("ranged GET", "s3:GetObject", e));
        }
    }

    private void copyAndDelete(S3Location object, long length) {
        S3Location copy = base.withKey(base.key() + "copy.bin");
        try {
            client.copy(object, copy, length);
            ObjectMetadata copied = client.head(copy);
            report.add(
                    copied.length() == length
                            ? Check.ok(
                                    SECTION,
                                    "server-side copy",
                                    "CopyObject made a " + length + "-byte copy in the store")
                            : Check.failure(
                                    SECTION, "server-side copy", "the copy has " + copied.length() + " bytes", "-"));
        } catch (IOException e) {
            report.add(failed("server-side copy", "s3:GetObject and s3:PutObject", e));
        }
        try {
            client.delete(copy);
            try {
                client.head(copy);
                report.add(Check.failure(
                        SECTION,
                        "DELETE",
                        "the object is still there after DeleteObject",
                        "check the bucket's versioning"));
            } catch (FileNotFoundException gone) {
                report.add(Check.ok(SECTION, "DELETE", "DeleteObject removed the copy"));
            }
        } catch (IOException e) {
            report.add(failed("DELETE", "s3:DeleteObject", e));
        }
    }

    private void deleteObjects() {
        List<String> keys = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                S3Location small = base.withKey(base.key() + "batch-" + i);
                Futures.await(client.put(small, ByteBuffer.wrap(bytes(10)), WriteCondition.NONE), "PutObject", small);
                keys.add(small.key());
            }
            List<String> failed = client.deleteBatch(base.bucket(), keys);
            report.add(
                    failed.isEmpty()
                            ? Check.ok(SECTION, "DeleteObjects", "one DeleteObjects request removed 3 objects")
                            : Check.failure(
                                    SECTION, "DeleteObjects", "keys not deleted: " + failed, "s3:DeleteObject"));
        } catch (IOException e) {
            report.add(failed("DeleteObjects", "s3:DeleteObject", e));
        }
    }

    /**
     * A multipart upload with parts of different sizes (5 MiB + 1 KiB, 5 MiB, 1 KiB), as the recoverable writer
     * makes them when it persists: a store that wants every part but the last of one size (Cloudflare R2) refuses
     * the completion, which {@code s3.upload.uniform-parts} avoids.
     */
    private void multipart() {
        S3Location object = base.withKey(base.key() + "multipart.bin");
        String uploadId = null;
        try {
            uploadId = Futures.await(client.createMultipartUpload(object), "CreateMultipartUpload", object);
            List<CompletedPart> parts = new ArrayList<>();
            int[] sizes = {5 * MIB + 1024, 5 * MIB, 1024};
            for (int i = 0; i < sizes.length; i++) {
                parts.add(Futures.await(
                        client.uploadPart(object, uploadId, i + 1, ByteBuffer.wrap(bytes(sizes[i]))),
                        "UploadPart",
                        object));
            }
            try {
                Futures.await(
                        client.completeMultipartUpload(object, uploadId, parts, WriteCondition.NONE),
                        "CompleteMultipartUpload",
                        object);
                uploadId = null;
                long length = client.head(object).length();
                report.add(Check.ok(
                        SECTION,
                        "multipart upload",
                        "create, 3 parts of different sizes, complete: " + length + " bytes"));
            } catch (S3RequestException e) {
                if ("InvalidPart".equals(e.errorCode())
                        || String.valueOf(e.getMessage()).contains("same length")) {
                    report.add(Check.warning(
                            SECTION,
                            "multipart upload",
                            "parts work, but the store completes only uploads whose parts but the last have one size ("
                                    + CredentialChecks.firstLine(e.getMessage()) + ")",
                            S3ConfigOptions.UNIFORM_PARTS.key() + ": true"));
                } else {
                    throw e;
                }
            }
        } catch (IOException e) {
            report.add(failed("multipart upload", "s3:PutObject (all multipart requests)", e));
        } finally {
            if (uploadId != null) {
                Futures.quietly(client.abortMultipartUpload(object, uploadId));
            }
        }
    }

    private void abortAndListUploads() {
        S3Location object = base.withKey(base.key() + "aborted.bin");
        String uploadId = null;
        try {
            uploadId = Futures.await(client.createMultipartUpload(object), "CreateMultipartUpload", object);
            Futures.await(client.uploadPart(object, uploadId, 1, ByteBuffer.wrap(bytes(1024))), "UploadPart", object);
            try {
                List<PendingUpload> pending = client.listMultipartUploads(base.bucket(), base.key());
                String id = uploadId;
                report.add(
                        pending.stream().anyMatch(u -> u.uploadId().equals(id))
                                ? Check.ok(SECTION, "ListMultipartUploads", "lists the open upload")
                                : Check.warning(
                                        SECTION,
                                        "ListMultipartUploads",
                                        "the open upload is not listed",
                                        "abandoned uploads cannot be found and purged ("
                                                + S3ConfigOptions.MULTIPART_PURGE_AGE.key() + "): add a bucket"
                                                + " lifecycle rule that aborts incomplete uploads"));
            } catch (IOException e) {
                report.add(failed("ListMultipartUploads", "s3:ListBucketMultipartUploads", e));
            }
            Futures.await(client.abortMultipartUpload(object, uploadId), "AbortMultipartUpload", object);
            uploadId = null;
            report.add(Check.ok(SECTION, "AbortMultipartUpload", "the upload was aborted"));
        } catch (IOException e) {
            report.add(failed("AbortMultipartUpload", "s3:AbortMultipartUpload", e));
        } finally {
            if (uploadId != null) {
                Futures.quietly(client.abortMultipartUpload(object, uploadId));
            }
        }
    }

    /** The plugin's own probes of If-None-Match: * ({@link ConditionProbes}). */
    private void conditions() {
        S3Location near = base.withKey(base.key() + "conditional");
        try {
            boolean puts = ConditionProbes.putRefusesOverwrite(client, near);
            boolean completions = ConditionProbes.completionRefusesOverwrite(client, near);
            if (puts && completions) {
                report.add(Check.ok(
                        SECTION,
                        "conditional create",
                        "If-None-Match: * honoured on PutObject and"
                                + " CompleteMultipartUpload: no-overwrite is atomic"));
            } else {
                String ignored = !puts && !completions
                        ? "PutObject and CompleteMultipartUpload"
                        : !puts ? "PutObject" : "CompleteMultipartUpload";
                report.add(Check.warning(
                        SECTION,
                        "conditional create",
                        "If-None-Match: * is ignored on " + ignored + ": the plugin checks with a HEAD before those"
                                + " commits instead, which leaves a short race between two writers of one key",
                        settings.upload().conditionalWritesEnabled()
                                ? S3ConfigOptions.CONDITIONAL_WRITES_ENABLED.key()
                                        + ": false skips the probe; nothing else to change"
                                : "none (" + S3ConfigOptions.CONDITIONAL_WRITES_ENABLED.key() + " is already false)"));
            }
        } catch (IOException e) {
            report.add(failed("conditional create", "s3:PutObject", e));
        }
    }

    /** A PutObject whose CRC32C header is wrong: a server that verifies refuses it. */
    private void checksumVerified() {
        String key = base.key() + "wrong-checksum.bin";
        try {
            raw.putObject(
                    b -> b.bucket(base.bucket()).key(key).checksumCRC32C("AAAAAA=="),
                    RequestBody.fromBytes(bytes(100)));
            report.add(Check.warning(
                    SECTION,
                    "checksum verified",
                    "an upload with a wrong x-amz-checksum-crc32c was stored: the server does not verify it",
                    "none needed: the plugin then verifies uploads with Content-MD5 (checksum header above)"));
        } catch (S3Exception e) {
            String code = String.valueOf(e.awsErrorDetails().errorCode());
            if (e.statusCode() == 400 && (code.contains("Digest") || code.contains("Checksum"))) {
                report.add(Check.ok(
                        SECTION, "checksum verified", "a wrong x-amz-checksum-crc32c was refused (" + code + ")"));
            } else if (e.statusCode() == 400) {
                report.add(Check.warning(
                        SECTION,
                        "checksum verified",
                        "the server refuses x-amz-checksum-crc32c itself (" + code + "), so it verifies none",
                        "none needed: the plugin then verifies uploads with Content-MD5 (checksum header above)"));
            } else {
                report.add(failed("checksum verified", "s3:PutObject", e.statusCode(), code, e));
            }
        }
    }

    /** An upload with its checksum in an aws-chunked trailer, as the CRT engine (s3.client: crt) sends bodies. */
    private void trailer() {
        String key = base.key() + "trailer.bin";
        try {
            raw.putObject(
                    b -> b.bucket(base.bucket()).key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32_C),
                    RequestBody.fromBytes(bytes(100)));
            report.add(Check.ok(
                    SECTION,
                    "aws-chunked trailer",
                    "an upload with its CRC32C in an aws-chunked trailer" + " was accepted"));
        } catch (S3Exception e) {
            report.add(Check.warning(
                    SECTION,
                    "aws-chunked trailer",
                    "the server refuses checksum trailers (" + e.statusCode() + " "
                            + e.awsErrorDetails().errorCode() + "); the default engine sends none",
                    settings.client().client().name().equals("CRT")
                            ? S3ConfigOptions.S3_CLIENT.key() + ": sdk (the CRT engine sends trailers)"
                            : "keep " + S3ConfigOptions.S3_CLIENT.key() + ": sdk"));
        }
    }

    /** A key with characters XML and URLs treat specially, listed back exactly. */
    private void listingEncoding() {
        S3Location odd = base.withKey(base.key() + "odd key+%20&ü=.bin");
        try {
            Futures.await(client.put(odd, ByteBuffer.wrap(bytes(1)), WriteCondition.NONE), "PutObject", odd);
            ListPage page = client.list(base.bucket(), base.key() + "odd", null, null, 10);
            boolean exact = page.objects().stream().anyMatch(o -> o.key().equals(odd.key()));
            report.add(
                    exact
                            ? Check.ok(
                                    SECTION,
                                    "listing encoding",
                                    "a key with ' ', '+', '%', '&' and 'ü' listed back exactly")
                            : Check.failure(
                                    SECTION,
                                    "listing encoding",
                                    "the key came back as " + page.objects(),
                                    "the store mangles keys in listings: avoid such characters in paths"));
        } catch (IOException e) {
            report.add(failed("listing encoding", "s3:PutObject and s3:ListBucket", e));
        }
    }

    private void encryption(S3Location object) {
        try {
            HeadObjectResponse head =
                    raw.headObject(b -> b.bucket(object.bucket()).key(object.key()));
            String configured = String.valueOf(settings.encryption().sseType());
            String stored = head.serverSideEncryptionAsString();
            String detail = "configured " + configured + "; the store reports "
                    + (stored == null ? "no server-side encryption" : stored)
                    + (head.ssekmsKeyId() == null ? "" : " with key " + head.ssekmsKeyId());
            boolean wantsKms = configured.contains("KMS");
            if (wantsKms && (stored == null || !stored.startsWith("aws:kms"))) {
                report.add(Check.failure(
                        SECTION,
                        "SSE",
                        detail,
                        "the store did not apply SSE-KMS: check " + S3ConfigOptions.SSE_TYPE.key()));
            } else {
                report.add(Check.ok(SECTION, "SSE", detail));
            }
        } catch (S3Exception e) {
            report.add(failed(
                    "SSE", "s3:GetObject", e.statusCode(), e.awsErrorDetails().errorCode(), e));
        }
    }

    /** Removes every object and upload under the probes' prefix. */
    private void cleanUp() {
        try {
            for (PendingUpload upload : client.listMultipartUploads(base.bucket(), base.key())) {
                Futures.quietly(client.abortMultipartUpload(base.withKey(upload.key()), upload.uploadId()));
            }
        } catch (IOException | RuntimeException ignored) {
            // reported by the probe that needed the permission
        }
        try {
            String token = null;
            List<String> left = new ArrayList<>();
            do {
                ListPage page = client.list(base.bucket(), base.key(), null, token, 1000);
                page.objects().forEach(o -> left.add(o.key()));
                token = page.nextContinuationToken();
            } while (token != null);
            for (String key : left) {
                try {
                    client.delete(base.withKey(key));
                } catch (IOException e) {
                    report.add(Check.warning(
                            SECTION,
                            "clean-up",
                            "could not delete " + key + ": " + e.getMessage(),
                            "delete it by hand"));
                }
            }
            report.add(Check.ok(CLEAN_UP, "objects", "removed " + base + " (" + left.size() + " objects)"));
        } catch (IOException | RuntimeException e) {
            report.add(Check.warning(
                    SECTION,
                    "clean-up",
                    "could not list " + base + ": " + e.getMessage(),
                    "delete the prefix by hand"));
        }
    }

    private String parentPrefix() {
        String key = base.key();
        int slash = key.lastIndexOf('/', key.length() - 2);
        return slash < 0 ? "" : key.substring(0, slash + 1);
    }

    private Check failed(String probe, String action, IOException e) {
        int status = e instanceof S3RequestException ? ((S3RequestException) e).statusCode() : 0;
        String code = e instanceof S3RequestException ? ((S3RequestException) e).errorCode() : null;
        return failed(probe, action, status, code, e);
    }

    private Check failed(String probe, String action, int status, String code, Exception e) {
        String detail = CredentialChecks.firstLine(e.getMessage());
        if (status == 403 || "AccessDenied".equals(code)) {
            return Check.failure(
                    SECTION,
                    probe,
                    "access denied: " + detail,
                    "allow " + action + " on the bucket for this identity (k8s/aws/iam-policy.json lists what the"
                            + " plugin needs)");
        }
        return Check.failure(SECTION, probe, detail, "see the error's hint; the plugin's jobs would fail the same way");
    }

    private byte[] bytes(int n) {
        byte[] data = new byte[n];
        random.nextBytes(data);
        return data;
    }
}
