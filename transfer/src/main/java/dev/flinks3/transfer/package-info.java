/**
 * The seam between the engines and S3: {@link dev.flinks3.transfer.ObjectClient}, through which every
 * S3 request of the engines goes, its locations, value types and errors, and the settings. Unit tests
 * drive the engines on an in-memory fake of the seam; in production it is {@code
 * dev.flinks3.transfer.sdk.SdkObjectClient}. The other packages: {@code aws} (what both clients on the
 * AWS SDK share), {@code sdk} (the client owner and the SDK adapter), {@code crt} (the CRT-based S3 client), {@code read} (input streams) and {@code bulk}
 * (bulk restore), the last two on the seam only.
 */
package dev.flinks3.transfer;
