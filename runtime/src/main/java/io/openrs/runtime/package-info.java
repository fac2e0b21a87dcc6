/**
 * What every OpenRS module shares at run time, and nothing else: the base of long-lived threads
 * ({@link io.openrs.runtime.WorkerThread}), the thread-name convention ({@link
 * io.openrs.runtime.ThreadNames}: {@code rs-<module>-<component>[-<id>]}, also for pool factories)
 * and the shape of a module's counter catalogue ({@link io.openrs.runtime.CounterDefinition}).
 *
 * <p>Threads: starts none itself; each {@code WorkerThread} is its subclass's own thread.
 *
 * <p>Must not import any other OpenRS module (every module may import this one) nor any library but
 * slf4j; {@code RuntimeBoundariesTest} enforces it.
 */
package io.openrs.runtime;
