/**
 * Bulk restore, what Flink's {@code PathsCopyingFileSystem} asks for: many objects copied to local
 * files in parallel, each in parallel ranged GETs through the {@link dev.flinks3.transfer.ObjectClient}
 * seam with {@code If-Match} on the ETag of the first answer.
 */
package dev.flinks3.transfer.bulk;
