package dev.flinks3.fs;

import dev.flinks3.transfer.Futures;
import dev.flinks3.transfer.ListPage;
import dev.flinks3.transfer.ObjectClient;
import dev.flinks3.transfer.ObjectMetadata;
import dev.flinks3.transfer.S3Location;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Renames by server-side copy and delete, as S3 has no rename: the bytes never leave S3, and objects
 * above 5 GiB are copied part by part (UploadPartCopy) by the {@link ObjectClient}.
 *
 * <p>A directory is renamed by copying every object under its prefix, directory markers included, and
 * only when all copies succeeded deleting exactly the objects copied. A failure during the copies
 * leaves the source complete (and possibly part of the target); a failure during the deletes leaves
 * both complete for the keys not yet deleted. This is not atomic, as with every S3 filesystem.
 */
final class ServerSideRename {

    private final ObjectClient client;

    ServerSideRename(ObjectClient client) {
        this.client = client;
    }

    /** Copies one object and deletes the source. */
    void renameFile(S3Location source, long length, S3Location target) throws IOException {
        Futures.await(client.copy(source, target, length), "CopyObject", source);
        client.delete(source);
    }

    /**
     * Moves every object under {@code source}'s directory prefix to {@code target}'s.
     *
     * @return false if there was no object under the source prefix
     */
    boolean renameDirectory(S3Location source, S3Location target) throws IOException {
        String fromPrefix = source.directoryPrefix();
        String toPrefix = target.directoryPrefix();
        List<String> copied = new ArrayList<>();
        ObjectListing listing = new ObjectListing(client, source.bucket(), fromPrefix, null);
        for (ListPage page = listing.next(); page != null; page = listing.next()) {
            for (ObjectMetadata object : page.objects()) {
                String relative = object.key().substring(fromPrefix.length());
                S3Location from = source.withKey(object.key());
                Futures.await(
                        client.copy(from, target.withKey(toPrefix + relative), object.length()), "CopyObject", from);
                copied.add(object.key());
            }
        }
        if (copied.isEmpty()) {
            return false;
        }
        new PrefixDelete(client, source).deleteKeys(copied, fromPrefix);
        return true;
    }
}
