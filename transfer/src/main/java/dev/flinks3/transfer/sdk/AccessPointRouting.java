package dev.flinks3.transfer.sdk;

import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Sends the requests for a bucket to its access point: the bucket members of a request ({@code
 * Bucket}, and {@code SourceBucket}, {@code DestinationBucket} and {@code CopySource} of copies) that name a bucket of
 * {@link ClientSettings#accessPoints()} are replaced by the access point's ARN or alias before the SDK
 * resolves the endpoint, so the SDK signs for the access point and sends to its host (S3 user guide,
 * "Using Amazon S3 access points"; an ARN is not a valid URI authority, so paths keep the bucket name,
 * as S3A's {@code fs.s3a.bucket.<bucket>.accesspoint.arn} does). Paths, listings and messages keep the
 * bucket name. Registered on the S3 client as an SDK execution interceptor; immutable and thread-safe.
 */
final class AccessPointRouting implements ExecutionInterceptor {

    private static final String COPY_SOURCE = "CopySource";
    private static final Set<String> BUCKET_MEMBERS =
            Set.of("Bucket", "SourceBucket", "DestinationBucket", COPY_SOURCE);

    private final Map<String, String> accessPoints;

    AccessPointRouting(Map<String, String> accessPoints) {
        this.accessPoints = Map.copyOf(accessPoints);
    }

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        SdkRequest request = context.request();
        SdkRequest.Builder builder = null;
        for (SdkField<?> field : request.sdkFields()) {
            if (!BUCKET_MEMBERS.contains(field.memberName())) {
                continue;
            }
            Object value = field.getValueOrDefault(request);
            String routed = value instanceof String ? route(field.memberName(), (String) value) : null;
            if (routed != null) {
                builder = builder == null ? request.toBuilder() : builder;
                field.set((SdkPojo) builder, routed);
            }
        }
        return builder == null ? request : builder.build();
    }

    /**
     * The member's value for the access point, or {@code null} to keep it. The SDK has already turned a
     * copy's source bucket and key into {@code CopySource} ({@code bucket/encoded-key}); for an access
     * point S3 takes {@code <ARN>/object/<key>}, or {@code <alias>/<key>} (S3 API reference, CopyObject).
     */
    private String route(String member, String value) {
        if (!member.equals(COPY_SOURCE)) {
            return accessPoints.get(value);
        }
        int slash = value.indexOf('/');
        String accessPoint = slash < 0 ? null : accessPoints.get(value.substring(0, slash));
        if (accessPoint == null) {
            return null;
        }
        String prefix = accessPoint.startsWith("arn:") ? accessPoint + "/object/" : accessPoint + "/";
        return SdkHttpUtils.urlEncodeIgnoreSlashes(prefix) + value.substring(slash + 1);
    }

    @Override
    public String toString() {
        return "AccessPointRouting" + accessPoints;
    }
}
