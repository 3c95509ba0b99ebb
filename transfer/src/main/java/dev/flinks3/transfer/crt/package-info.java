/**
 * The CRT engine: the CRT-based S3 client ({@code s3.client: crt}) and the Transfer Manager file
 * download that bulk restore uses on it. Builds on {@code aws}; imports nothing from {@code sdk}.
 */
package dev.flinks3.transfer.crt;
