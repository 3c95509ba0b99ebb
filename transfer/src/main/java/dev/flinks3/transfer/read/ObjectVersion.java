package dev.flinks3.transfer.read;

import dev.flinks3.transfer.S3Location;
import dev.flinks3.transfer.S3RequestException;

/**
 * The version of an object one stream reads: the ETag of the first answer any of its GETs got (next
 * range, read-ahead, a re-request after a broken body, positional reads), and the object's length once
 * known (given when the stream was opened, or told by an answer). Every later GET sends it as
 * {@code If-Match} (S3 API reference, GetObject), so the server refuses with 412 once the object was
 * replaced, and every answer's ETag is compared with it, for servers that ignore {@code If-Match}.
 * Thread-safe: positional reads of one stream run on many threads.
 */
final class ObjectVersion {

    private final S3Location location;
    private volatile String eTag;
    private volatile long length;

    /** @param knownLength the object's length in bytes if the opener knows it (a listing, a HEAD), else -1 */
    ObjectVersion(S3Location location, long knownLength) {
        this.location = location;
        this.length = knownLength;
    }

    /** The object's length in bytes, -1 while unknown. */
    long length() {
        return length;
    }

    /** Takes the object's length from an answer; -1 (unknown) changes nothing. */
    void learnLength(long answered) {
        if (answered >= 0) {
            length = answered;
        }
    }

    /** The ETag later GETs must send as {@code If-Match}; {@code null} until an answer told one. */
    String ifMatch() {
        return eTag;
    }

    /**
     * Takes the ETag of an answer: the first one fixes the version, later ones must equal it.
     *
     * @param answered the answer's ETag, {@code null} if it had none (then nothing is checked)
     * @throws ObjectChangedException if the stream saw another ETag before
     */
    void check(String answered) throws ObjectChangedException {
        if (answered == null) {
            return;
        }
        String seen;
        synchronized (this) {
            seen = eTag;
            if (seen == null) {
                eTag = answered;
                return;
            }
        }
        if (!seen.equals(answered)) {
            throw new ObjectChangedException(
                    location + " changed while it was read: its ETag was " + seen + " and is now " + answered, null);
        }
    }

    /**
     * The failure to report for a GET's failure: a 412 answer to the {@code If-Match} this version sent
     * becomes an {@link ObjectChangedException}; anything else is returned as it is.
     *
     * @param ifMatch the ETag the failed GET sent, {@code null} if it sent none
     */
    Throwable explain(Throwable failure, String ifMatch) {
        if (ifMatch != null
                && failure instanceof S3RequestException
                && ((S3RequestException) failure).statusCode() == 412) {
            return new ObjectChangedException(
                    location + " changed while it was read: the server answered 412 Precondition Failed to"
                            + " If-Match " + ifMatch + ", the ETag the stream's first GET saw",
                    failure);
        }
        return failure;
    }

    /** An object whose length differs from the one first seen has changed. */
    ObjectChangedException lengthChanged(long before, long now) {
        return new ObjectChangedException(
                location + " changed while it was read: its length was " + before + " bytes and is now " + now
                        + " bytes",
                null);
    }
}
