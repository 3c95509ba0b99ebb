package dev.flinks3.writer;

import dev.flinks3.multipart.ETags;
import dev.flinks3.transfer.CompletedPart;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Recorded parts checked against those an upload holds (a ListParts answer). */
final class UploadedParts {

    private UploadedParts() {}

    /**
     * The recorded parts as the upload holds them: each must be listed with the recorded ETag; a size the record
     * lacks (another plugin's, -1) or a CRC32C it lacks (serializer version 1) is taken from the listing.
     *
     * @param action what the parts are matched for ({@code "resume writing"}, {@code "commit"}), for messages
     * @param recorder who recorded the parts, for messages
     * @throws IOException naming the first recorded part the upload lacks or holds with another ETag
     */
    static List<CompletedPart> match(
            String action,
            S3Location target,
            String uploadId,
            List<CompletedPart> recorded,
            List<CompletedPart> uploaded,
            String recorder)
            throws IOException {
        Map<Integer, CompletedPart> listed = new HashMap<>();
        for (CompletedPart part : uploaded) {
            listed.put(part.partNumber(), part);
        }
        List<CompletedPart> parts = new ArrayList<>(recorded.size());
        for (CompletedPart part : recorded) {
            CompletedPart held = listed.get(part.partNumber());
            if (held == null || !ETags.same(held.eTag(), part.eTag())) {
                throw new IOException("Cannot " + action + " " + target + ": part " + part.partNumber() + " of upload "
                        + uploadId + " is " + (held == null ? "missing" : "another one (ETag " + held.eTag() + ")")
                        + ", " + recorder + " recorded ETag " + part.eTag());
            }
            parts.add(new CompletedPart(
                    part.partNumber(),
                    part.eTag(),
                    part.sizeBytes() >= 0 ? part.sizeBytes() : held.sizeBytes(),
                    part.checksumCrc32c() != null ? part.checksumCrc32c() : held.checksumCrc32c()));
        }
        return parts;
    }
}
