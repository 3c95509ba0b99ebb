/**
 * The SDK engine: {@link dev.flinks3.transfer.sdk.S3ClientOwner}, which builds the clients of one
 * configuration on the process's shared transport and chooses, once, between the SDK's own asynchronous
 * S3 client and the CRT-based one ({@code crt}), and {@link dev.flinks3.transfer.sdk.SdkObjectClient},
 * the {@link dev.flinks3.transfer.ObjectClient} on that client, with what they are built from: the
 * transport (HTTP clients and executors), retry strategies, request metrics, checksums, TLS, bucket
 * options and the direct ranged GETs. Builds on {@code aws}.
 */
package dev.flinks3.transfer.sdk;
