/**
 * What both S3 clients on the AWS SDK for Java v2 share, the SDK's own ({@code sdk}) and the CRT-based
 * one ({@code crt}): the translation of the SDK's exceptions into {@link java.io.IOException}s that name
 * the request and the switch to turn ({@link dev.flinks3.transfer.aws.S3Errors}), credentials and STS,
 * HTTP proxies, the server-side encryption headers, the guard that fails requests once the clients
 * are closed, the ordered closing of what was built, and the loading of the CRT's native library.
 * Imports neither engine.
 */
package dev.flinks3.transfer.aws;
