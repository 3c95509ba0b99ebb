package dev.flinks3.fs;

import dev.flinks3.transfer.S3Location;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The directories this filesystem's {@code mkdirs} made while {@code s3.directory-markers.enabled} is false:
 * nothing on S3 shows such a directory until an object lies under it, so the filesystem answers for the ones it
 * made itself, as a local filesystem would after {@code mkdirs}: they exist, list (empty if nothing is under
 * them) and can be deleted, without a request.
 *
 * <p>Why it matters: ForSt (Flink 2.x's disaggregated state backend, {@code ForStFileSystemUtils.tryDecorate}
 * in 2.3.0) makes a probe directory and asks {@code exists()} of it. When the answer is no, it wraps its
 * filesystem in a second object that shares the first one's file-mapping table (a {@code HashMap}) but
 * synchronizes on itself; ForSt's native side then uses the wrapper while its checkpoint and restore code use the
 * original, so both touch the table under different locks. Answering yes keeps ForSt on one object.
 *
 * <p>What it cannot know: directories made by another process, and a file another process puts at a path this
 * one made a directory (the path answers as a directory until this filesystem deletes, renames or creates it).
 * At most {@value #MAX_DIRECTORIES} are remembered; past that the first in key order are forgotten, and a
 * forgotten directory exists again only through the objects under it, as without this set. Thread-safe.
 */
final class UnmarkedDirectories {

    /** Most directories remembered (about 100 bytes each). */
    static final int MAX_DIRECTORIES = 65_536;

    /** Each directory as {@code bucket + "/" + key + "/"}, so a directory's descendants sort right after it. */
    private final NavigableSet<String> directories = new TreeSet<>();

    /**
     * Whether {@link #add} was ever called: with markers on it never is, and every other method then returns at
     * once without taking the lock (they run on every {@code getFileStatus} and {@code create}).
     */
    private volatile boolean used;

    /** Remembers the directory at {@code location} (its parents exist through it). The root is not kept. */
    synchronized void add(S3Location location) {
        if (location.key().isEmpty()) {
            return;
        }
        used = true;
        directories.add(entry(location));
        keepWithinLimit();
    }

    /** Whether {@code location} is a remembered directory or the parent of one. */
    boolean contains(S3Location location) {
        if (!used || location.key().isEmpty()) {
            return false;
        }
        synchronized (this) {
            String entry = entry(location);
            String next = directories.ceiling(entry);
            return next != null && next.startsWith(entry);
        }
    }

    /**
     * The remembered directories directly below {@code location}, as locations: what a listing of it shows
     * besides the objects under it.
     */
    List<S3Location> children(S3Location location) {
        if (!used) {
            return List.of();
        }
        synchronized (this) {
            String entry = entry(location);
            List<S3Location> children = new ArrayList<>();
            String last = null;
            for (String descendant : directories.tailSet(entry, false)) {
                if (!descendant.startsWith(entry)) {
                    break;
                }
                int end = descendant.indexOf('/', entry.length());
                String child = descendant.substring(0, end + 1);
                if (!child.equals(last)) {
                    children.add(location.withKey(location.directoryPrefix() + child.substring(entry.length(), end)));
                    last = child;
                }
            }
            return children;
        }
    }

    /**
     * Forgets the directory at {@code location} and every remembered directory below it.
     *
     * @return whether anything was remembered there
     */
    boolean forget(S3Location location) {
        if (!used || location.key().isEmpty()) {
            return false;
        }
        synchronized (this) {
            NavigableSet<String> below = subtree(entry(location));
            boolean any = !below.isEmpty();
            below.clear();
            return any;
        }
    }

    /**
     * Moves the remembered directory at {@code from}, and those below it, to {@code to}.
     *
     * @return whether anything was remembered at {@code from}
     */
    synchronized boolean move(S3Location from, S3Location to) {
        String source = entry(from);
        NavigableSet<String> below = subtree(source);
        if (below.isEmpty() || to.key().isEmpty()) {
            return false;
        }
        List<String> moved = new ArrayList<>(below);
        below.clear();
        String target = entry(to);
        moved.forEach(directory -> directories.add(target + directory.substring(source.length())));
        keepWithinLimit();
        return true;
    }

    /** Drops entries, first in order, until at most {@value #MAX_DIRECTORIES} are kept; called with the lock held. */
    private void keepWithinLimit() {
        while (directories.size() > MAX_DIRECTORIES) {
            directories.pollFirst();
        }
    }

    /** The live view of {@code entry} and the entries below it. */
    private NavigableSet<String> subtree(String entry) {
        // '/' + 1 is '0': every key that starts with "entry" (which ends with '/') sorts below entry's end.
        String end = entry.substring(0, entry.length() - 1) + (char) ('/' + 1);
        return directories.subSet(entry, true, end, false);
    }

    private static String entry(S3Location location) {
        return location.bucket() + "/" + location.directoryPrefix();
    }
}
