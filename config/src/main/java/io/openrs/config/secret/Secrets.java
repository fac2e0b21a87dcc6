package io.openrs.config.secret;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What the RSSD stores for a secret setting (a connection's {@code password}) and how the clear
 * value is had back when a component needs it.
 *
 * <p>A DBA gives either a value, stored sealed ({@code enc:1:...}, see {@link SecretBox}), or a
 * reference, stored as written and resolved at each use:
 *
 * <ul>
 *   <li>{@code env:NAME}: the server process's environment variable {@code NAME};
 *   <li>{@code file:/absolute/path}: the file's contents, one trailing line break removed.
 * </ul>
 *
 * A password that itself starts with {@code env:}, {@code file:} or {@code enc:} cannot be given as
 * a value; put it in a file and give {@code file:/path}.
 *
 * <p>Immutable and thread-safe. Nothing here puts a clear secret into a message.
 */
public final class Secrets {
  /** Prefix of an environment reference. */
  public static final String ENV_PREFIX = "env:";

  /** Prefix of a file reference. */
  public static final String FILE_PREFIX = "file:";

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final Optional<SecretBox> box;
  private final Function<String, String> environment;

  /**
   * @param box the key secrets are sealed with; empty when there is none (a sealed value then
   *     cannot be opened and a value cannot be stored)
   * @param environment looks up environment variables ({@code System::getenv} in production)
   */
  public Secrets(Optional<SecretBox> box, Function<String, String> environment) {
    this.box = Objects.requireNonNull(box, "box");
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  /** Secrets sealed with {@code box}, references resolved in the process's environment. */
  public static Secrets sealedWith(SecretBox box) {
    return new Secrets(Optional.of(box), System::getenv);
  }

  /** No key: references only. */
  public static Secrets withoutKey() {
    return new Secrets(Optional.empty(), System::getenv);
  }

  /**
   * True for setting names whose values are secrets: names containing {@code password}, {@code
   * passwd}, {@code pwd} or {@code secret}, ending in {@code _pw}, or {@code pw} (the admin
   * commands mask the same names).
   */
  public static boolean isSecretName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.contains("password")
        || n.contains("passwd")
        || n.contains("pwd")
        || n.contains("secret")
        || n.endsWith("_pw")
        || n.equals("pw");
  }

  /** Whether {@code value} is a reference ({@code env:...} or {@code file:...}). */
  public static boolean isReference(String value) {
    return value.startsWith(ENV_PREFIX) || value.startsWith(FILE_PREFIX);
  }

  /** The sealing context of the {@code rs_config} row ({@code objid}, {@code name}). */
  public static String configContext(int objid, String name) {
    return "rs_config/" + objid + "/" + name;
  }

  /** Whether values can be sealed and opened (there is a key). */
  public boolean hasKey() {
    return box.isPresent();
  }

  /**
   * What the RSSD stores for the secret {@code value} given at {@code context}: a reference as
   * written (its syntax checked), the empty string as is, an already sealed value as is, anything
   * else sealed.
   *
   * @throws IllegalArgumentException for a malformed reference, naming the context
   * @throws SecretException when a value must be sealed and there is no key
   */
  public String forStorage(String value, String context) {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty() || SecretBox.isSealed(value)) {
      return value;
    }
    if (isReference(value)) {
      checkReference(value, context);
      return value;
    }
    return box.orElseThrow(
            () ->
                new SecretException(
                    "cannot store the secret of "
                        + context
                        + ": this RSSD was opened without a key file; give a reference"
                        + " (env:NAME or file:/path) instead"))
        .seal(value, context);
  }

  /**
   * The clear secret a stored value stands for: a sealed value opened, a reference resolved now, a
   * value stored in clear (before the server sealed it) as it is.
   *
   * @throws SecretException naming the context and, for references, the variable or file
   */
  public String reveal(String stored, String context) {
    Objects.requireNonNull(stored, "stored");
    if (SecretBox.isSealed(stored)) {
      return box.orElseThrow(
              () ->
                  new SecretException(
                      "cannot open the secret of " + context + ": there is no key file"))
          .open(stored, context);
    }
    if (stored.startsWith(ENV_PREFIX)) {
      String name = stored.substring(ENV_PREFIX.length());
      String v = environment.apply(name);
      if (v == null) {
        throw new SecretException(
            "the secret of "
                + context
                + " refers to the environment variable "
                + name
                + ", which the server process does not have");
      }
      return v;
    }
    if (stored.startsWith(FILE_PREFIX)) {
      Path file = Path.of(stored.substring(FILE_PREFIX.length()));
      try {
        return chompLineBreak(Files.readString(file, StandardCharsets.UTF_8));
      } catch (IOException | RuntimeException e) {
        throw new SecretException(
            "the secret of "
                + context
                + " refers to the file "
                + file
                + ", which the server cannot read ("
                + e.getClass().getSimpleName()
                + ")");
      }
    }
    return stored;
  }

  private static void checkReference(String value, String context) {
    if (value.startsWith(ENV_PREFIX)) {
      String name = value.substring(ENV_PREFIX.length());
      if (!ENV_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            context
                + ": env: must name an environment variable (letters, digits, _), got '"
                + name
                + "'");
      }
      return;
    }
    String path = value.substring(FILE_PREFIX.length());
    if (path.isEmpty() || !Path.of(path).isAbsolute()) {
      throw new IllegalArgumentException(
          context + ": file: must give an absolute path, got '" + path + "'");
    }
  }

  private static String chompLineBreak(String s) {
    if (s.endsWith("\r\n")) {
      return s.substring(0, s.length() - 2);
    }
    if (s.endsWith("\n")) {
      return s.substring(0, s.length() - 1);
    }
    return s;
  }

  @Override
  public String toString() {
    return "Secrets[" + box.map(SecretBox::toString).orElse("no key") + "]";
  }
}
