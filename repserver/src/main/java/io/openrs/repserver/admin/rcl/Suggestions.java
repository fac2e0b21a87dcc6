package io.openrs.repserver.admin.rcl;

import java.util.List;
import java.util.Optional;

/** Finds the keyword a misspelt word was probably meant to be. */
final class Suggestions {

  private Suggestions() {}

  /**
   * The candidate nearest to {@code word} by edit distance (insertions, deletions, substitutions
   * and swaps of neighbours), if it is near enough: 1 edit for words up to 3 characters, 2 up to 6,
   * else 3. On a tie the earlier candidate wins.
   */
  static Optional<String> closest(String word, List<String> candidates) {
    int limit = word.length() <= 3 ? 1 : word.length() <= 6 ? 2 : 3;
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(word, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    return bestDistance <= limit && bestDistance > 0 ? Optional.of(best) : Optional.empty();
  }

  /** Optimal string alignment distance. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
