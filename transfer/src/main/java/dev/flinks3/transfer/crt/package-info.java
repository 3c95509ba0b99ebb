/**
 * The AWS Common Runtime: the CRT-based S3 client ({@code s3.client: crt}), the loading of its native
 * library, its trust store, and the Transfer Manager file download that bulk restore uses on it.
 */
package dev.flinks3.transfer.crt;
