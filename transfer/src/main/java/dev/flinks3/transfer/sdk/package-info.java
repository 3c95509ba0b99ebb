/**
 * The seam on the AWS SDK for Java v2: {@link dev.flinks3.transfer.sdk.S3ClientOwner}, the one owner of
 * every heavy resource (S3 and HTTP clients, credentials, executors, the read-ahead budget), and {@link
 * dev.flinks3.transfer.sdk.SdkObjectClient}, the {@link dev.flinks3.transfer.ObjectClient} on its
 * asynchronous S3 client, with what they are built from: credentials, retry strategies, request
 * metrics, server-side encryption, proxies, TLS, checksums and the HTTP client factory.
 */
package dev.flinks3.transfer.sdk;
