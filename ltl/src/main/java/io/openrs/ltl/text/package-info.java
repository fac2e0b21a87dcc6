/**
 * The LTL text syntax: {@link io.openrs.ltl.text.LtlParser} (bytes to commands, with errors naming
 * line, column, the offending text and what was expected) and {@link io.openrs.ltl.text.LtlWriter}
 * (commands to bytes the parser reads back to equal commands). The grammar is in {@code
 * docs/ltl.md}.
 *
 * <p>Threads: a parser or writer instance is not thread-safe; each connection or agent owns one.
 *
 * <p>Must not: know about sockets, files or JDBC.
 */
package io.openrs.ltl.text;
