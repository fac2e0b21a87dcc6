/**
 * The packed binary form of LTL commands, stored inside stable queues: {@link
 * io.openrs.ltl.packed.PackedFormat} draws the bytes, {@link io.openrs.ltl.packed.PackedEncoder}
 * writes them and {@link io.openrs.ltl.packed.PackedDecoder} reads them back, trusting no length.
 * {@link io.openrs.ltl.packed.PackedRowReader} reads row commands in place (flat images: shared
 * names, values as primitives or slices of the bytes), accepting exactly what the decoder accepts;
 * HVAR compiles from it. Both read through the primitives of {@code PackedInput} (bytes, varints,
 * bounded counts), so they check lengths the same way.
 *
 * <p>Threads: encoder, decoder and reader instances are not thread-safe; each thread owns its own.
 *
 * <p>Must not: know about sockets, files or JDBC.
 */
package io.openrs.ltl.packed;
