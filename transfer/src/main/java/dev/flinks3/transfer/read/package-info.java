/**
 * Input streams on the {@link dev.flinks3.transfer.ObjectClient} seam: ranged GETs that grow while reads
 * are sequential, and a parallel read-ahead whose windows share a process-wide budget.
 */
package dev.flinks3.transfer.read;
