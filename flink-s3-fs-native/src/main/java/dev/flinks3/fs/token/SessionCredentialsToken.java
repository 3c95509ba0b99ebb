package dev.flinks3.fs.token;

import dev.flinks3.transfer.Secret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Objects;

/**
 * The bytes the JobManager's {@link S3DelegationTokenProvider} sends to every {@link
 * S3DelegationTokenReceiver}: a format version, then access key id, secret access key, session token
 * and expiration (epoch milliseconds, -1 if unknown). Flink carries the bytes and never reads them.
 * Plain data rather than Java serialization, so a receiver never deserializes classes. Immutable;
 * {@link #toString()} shows no secret.
 */
final class SessionCredentialsToken {

    private static final int VERSION = 1;

    final String accessKeyId;
    final Secret secretAccessKey;
    final Secret sessionToken;
    /** When the credentials expire, or {@code null} if unknown. */
    final Instant expiration;

    SessionCredentialsToken(String accessKeyId, Secret secretAccessKey, Secret sessionToken, Instant expiration) {
        this.accessKeyId = Objects.requireNonNull(accessKeyId, "accessKeyId");
        this.secretAccessKey = Objects.requireNonNull(secretAccessKey, "secretAccessKey");
        this.sessionToken = Objects.requireNonNull(sessionToken, "sessionToken");
        this.expiration = expiration;
    }

    byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION);
            out.writeUTF(accessKeyId);
            out.writeUTF(secretAccessKey.reveal());
            out.writeUTF(sessionToken.reveal());
            out.writeLong(expiration == null ? -1 : expiration.toEpochMilli());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * @throws IOException if the bytes are not a token of this format (another plugin's, or truncated)
     */
    static SessionCredentialsToken fromBytes(byte[] tokens) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(tokens))) {
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException("S3 delegation token of format version " + version + ", expected " + VERSION
                        + ": the JobManager and TaskManagers run different versions of the flinks3 plugin");
            }
            String accessKeyId = in.readUTF();
            Secret secret = Secret.ofNullable(in.readUTF());
            Secret token = Secret.ofNullable(in.readUTF());
            long expiration = in.readLong();
            return new SessionCredentialsToken(
                    accessKeyId, secret, token, expiration < 0 ? null : Instant.ofEpochMilli(expiration));
        } catch (EOFException e) {
            throw new IOException("S3 delegation token of " + tokens.length + " bytes is truncated", e);
        }
    }

    @Override
    public String toString() {
        return "SessionCredentialsToken{accessKeyId=" + accessKeyId + ", expiration=" + expiration + "}";
    }
}
