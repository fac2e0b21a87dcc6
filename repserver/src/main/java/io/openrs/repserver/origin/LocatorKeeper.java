package io.openrs.repserver.origin;

import io.openrs.config.rssd.Locator;
import io.openrs.config.rssd.LocatorsTable;
import io.openrs.ltl.Oqid;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an origin's row of {@code rs_locater} in step with its durable locator, and the agent's
 * resume blob with it. A blob the agent stores names the OQID it covers; it is saved only once
 * everything up to that OQID is durable in the inbound queue, so the stored blob is never ahead of
 * the data (an agent restarted from it cannot skip a change the server does not hold).
 *
 * <p>{@link #save()} and {@link #saveAndAnswer()} run on the server's RSSD writer thread (and once
 * at close); they are synchronized. The other methods run on any thread.
 */
public final class LocatorKeeper {

  private static final Logger LOG = LoggerFactory.getLogger(LocatorKeeper.class);

  private record Resume(Oqid coveredUpTo, byte[] blob) {}

  private final OriginState origin;
  private final LocatorsTable locators;
  private final AtomicReference<Resume> pending = new AtomicReference<>();
  private volatile byte[] savedBlob;
  private volatile Oqid savedOqid;

  /** {@code coveredUpTo} of the last blob saved by this server run (null before the first). */
  private volatile Oqid savedCover;

  private final AtomicLong updates = new AtomicLong();

  public LocatorKeeper(OriginState origin, LocatorsTable locators, Optional<Locator> stored) {
    this.origin = origin;
    this.locators = locators;
    this.savedBlob = stored.map(Locator::resumeBlob).orElse(new byte[0]);
    this.savedOqid =
        stored.filter(l -> l.oqid().length > 0).map(l -> Oqid.of(l.oqid())).orElse(null);
  }

  /**
   * The agent hands a resume blob covering everything up to {@code coveredUpTo}; one covering less
   * than the blob saved last is ignored.
   */
  public void offerResume(Oqid coveredUpTo, byte[] blob) {
    Oqid saved = savedCover;
    if (saved != null && coveredUpTo.compareTo(saved) < 0) {
      return;
    }
    pending.set(new Resume(coveredUpTo, blob.clone()));
  }

  /**
   * The answer to a {@code GetTruncation}: saves the locator and the pending resume blob (if the
   * durable locator covers it), then returns the durable locator as it was before the save, so
   * every blob offered before the call whose {@code coveredUpTo} is at or below the answer is in
   * the RSSD (or was replaced by a later one that is). If the RSSD write fails while a blob waits,
   * the answer is empty: it vouches for no blob (a cover alone does not name a blob: a later blob
   * may cover the same OQID with newer offsets).
   */
  public synchronized Optional<Oqid> saveAndAnswer() {
    Optional<Oqid> durable = origin.durableOqid();
    if (save() || pending.get() == null) {
      return durable;
    }
    return Optional.empty();
  }

  /** The resume blob handed to the next agent that connects: the last one saved. */
  public byte[] resumeBlob() {
    return savedBlob.clone();
  }

  /**
   * Writes the durable locator (and a pending resume blob it now covers) to the RSSD if either
   * moved since the last write ({@code UpdsRslocater}). False if the RSSD write failed.
   */
  public synchronized boolean save() {
    Optional<Oqid> durable = origin.durableOqid();
    if (durable.isEmpty()) {
      return true;
    }
    Oqid oqid = durable.get();
    Resume r = pending.get();
    byte[] blob = null;
    if (r != null && r.coveredUpTo().compareTo(oqid) <= 0) {
      blob = r.blob();
    }
    boolean oqidMoved = savedOqid == null || oqid.compareTo(savedOqid) > 0;
    if (!oqidMoved && (blob == null || Arrays.equals(blob, savedBlob))) {
      if (blob != null) {
        pending.compareAndSet(r, null);
      }
      return true;
    }
    try {
      locators.save(origin.connectionId(), oqid.toBytes(), blob);
      updates.incrementAndGet();
      savedOqid = oqid;
      if (blob != null) {
        savedBlob = blob;
        savedCover = r.coveredUpTo();
        pending.compareAndSet(r, null);
      }
      return true;
    } catch (RuntimeException e) {
      LOG.warn("could not save the locator of {} in the RSSD: {}", origin.name(), e.toString());
      return false;
    }
  }

  /** RSSD writes of the locator so far (RS {@code UpdsRslocater}). */
  public long updates() {
    return updates.get();
  }
}
