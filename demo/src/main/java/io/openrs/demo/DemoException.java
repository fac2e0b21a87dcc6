package io.openrs.demo;

/**
 * A problem that stops the demo, with a message for a new user: what is wrong, where, and how to
 * fix it. Printed without a stack trace.
 */
final class DemoException extends Exception {
  private static final long serialVersionUID = 1L;

  DemoException(String message) {
    super(message);
  }

  DemoException(String message, Throwable cause) {
    super(message, cause);
  }
}
