/**
 * The catalog of configuration parameters: every parameter declared once, as data (name, scopes,
 * type, default, range or values, when a change takes effect, description), its validation, and
 * {@link io.openrs.config.param.ParameterValues}, the immutable layered set of values a component
 * reads at start or resume. {@code docs/parameters.md} is checked against the catalog by a test.
 *
 * <p>Threads: immutable values, safe to share; owns no thread.
 *
 * <p>Must not: read files, the RSSD or the network (the server loads the start-up file and the RSSD
 * rows and hands their text here), or depend on the pipeline modules.
 */
package io.openrs.config.param;
