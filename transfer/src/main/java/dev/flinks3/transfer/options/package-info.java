/**
 * The configuration options of the plugin's S3 side, each declared once ({@link dev.flinks3.transfer.options.Option},
 * catalog {@link dev.flinks3.transfer.options.S3Options}): key, fallback spellings, type, default, range or allowed
 * values, description, and the setting its value goes into. Every module names a key through these declarations.
 * Imports the settings parts of {@code dev.flinks3.transfer} and constants of {@code read}; nothing of the SDK.
 */
package dev.flinks3.transfer.options;
