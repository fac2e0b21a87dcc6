/**
 * The packed binary form of LTL commands, stored inside stable queues: {@link
 * io.openrs.ltl.packed.PackedFormat} draws the bytes, {@link io.openrs.ltl.packed.PackedEncoder}
 * writes them and {@link io.openrs.ltl.packed.PackedDecoder} reads them back, trusting no length.
 *
 * <p>Threads: encoder and decoder instances are not thread-safe; each thread owns its own.
 *
 * <p>Must not: know about sockets, files or JDBC.
 */
package io.openrs.ltl.packed;
