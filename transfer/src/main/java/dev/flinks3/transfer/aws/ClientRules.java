package dev.flinks3.transfer.aws;

import dev.flinks3.transfer.ClientSettings;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;

/**
 * The decisions every S3 client of one configuration is built with, whichever its type (the SDK's own
 * client and the CRT-based one have builders with the same setters but no common interface, so each
 * builder calls these): which checksums are computed and checked, and whether the client follows S3's
 * region redirects.
 */
public final class ClientRules {

    private ClientRules() {}

    /**
     * Upload checksums are computed by the plugin and sent as headers; the SDK adds its own only where an
     * operation requires one (DeleteObjects), so it never sends trailers.
     */
    public static RequestChecksumCalculation requestChecksums() {
        return RequestChecksumCalculation.WHEN_REQUIRED;
    }

    /** Answers' checksums are checked where the server sends them, unless {@code s3.checksum-validation.enabled} is off. */
    public static ResponseChecksumValidation responseChecksums(ClientSettings client) {
        return client.checksumsEnabled()
                ? ResponseChecksumValidation.WHEN_SUPPORTED
                : ResponseChecksumValidation.WHEN_REQUIRED;
    }

    /**
     * True if the client must follow S3's region redirects: without an endpoint and a region it signs for
     * {@code us-east-1} and buckets of any region still work.
     */
    public static boolean crossRegionAccess(ClientSettings client) {
        return client.endpoint() == null && client.region() == null;
    }
}
