package dev.parallax.engine.index;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * TRUNCATE's emptying of unique indexes: an index all of whose keys belong to the truncated tables
 * gets a fresh empty map in place of its keys ({@link ChronicleUniqueIndex#replaceWithEmpty}),
 * instead of having every key removed one by one. That is the index of a table that is not
 * partitioned, and the shared index of a partitioned table when every partition holding a tag on
 * it is truncated in the statement; truncating only some partitions still removes just their keys
 * (the caller's listener, for the indexes {@link #emptiesWhole} says no to). Removing 2M keys one
 * by one took about 5 s; see TableTruncation for the figures.
 *
 * <p>Used by the truncating thread, inside TRUNCATE's hold on every table it empties: made (the
 * empty maps created, their memory reserved) before any table changes, so that running out of
 * memory leaves those indexes to the one-by-one path; {@link #emptyAll} once, under the first
 * table's write lock before its empty pages are published; {@link #close} frees what was not used.
 */
public final class WholeIndexEmptying implements AutoCloseable {
    /** What one shared (or unshared) index needs: the tags of its truncated partitions and its empty map. */
    private static final class Target {
        final ChronicleUniqueIndex<?> index;
        final BitSet tags = new BitSet();
        final List<PartitionUniqueIndex> shares = new ArrayList<>();
        ChronicleUniqueIndex.EmptyMap<?> empty;

        Target(ChronicleUniqueIndex<?> index) {
            this.index = index;
        }
    }

    private final List<Target> targets = new ArrayList<>();
    private final Set<UniqueIndex> wholes = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean emptied;

    private WholeIndexEmptying() {
    }

    /**
     * Decides, for every unique index of the tables being truncated ({@code indexes}, each table's
     * constraints' indexes), whether it is emptied whole, and makes the empty maps for those.
     */
    public static WholeIndexEmptying prepare(List<UniqueIndex> indexes) {
        WholeIndexEmptying emptying = new WholeIndexEmptying();
        Map<ChronicleUniqueIndex<?>, Target> byIndex = new IdentityHashMap<>();
        for (UniqueIndex index : indexes) {
            if (index instanceof PartitionUniqueIndex share) {
                Target target = byIndex.computeIfAbsent((ChronicleUniqueIndex<?>) share.tableIndex(), Target::new);
                target.tags.set(share.tag());
                target.shares.add(share);
            } else if (index instanceof ChronicleUniqueIndex<?> own) {
                byIndex.computeIfAbsent(own, Target::new);
            }
        }
        try {
            for (Target target : byIndex.values()) {
                if (!target.index.claimsOnly(target.tags)) {
                    continue; // partitions not truncated hold keys there: remove just the truncated ones'
                }
                try {
                    target.empty = target.index.newEmptyMap();
                } catch (RuntimeException overBudget) {
                    continue; // no room for even an empty map now: the keys go one by one
                }
                emptying.targets.add(target);
                if (target.shares.isEmpty()) {
                    emptying.wholes.add(target.index);
                } else {
                    emptying.wholes.addAll(target.shares);
                }
            }
        } catch (RuntimeException | Error failure) {
            emptying.close();
            throw failure;
        }
        return emptying;
    }

    /** Whether {@code index} is emptied whole by {@link #emptyAll}, so the caller need not remove its keys. */
    public boolean emptiesWhole(UniqueIndex index) {
        return wholes.contains(index);
    }

    /**
     * Empties every index {@link #emptiesWhole} named; later calls do nothing. Called under the
     * first truncated table's write lock, with its relocation count odd, so that a point read that
     * fetched a row id from an old map retries, as when the keys were removed there one by one.
     * When a partition not truncated claimed a tag on a shared index since {@link #prepare}, only
     * the truncated partitions' keys leave it, found by their tags.
     */
    public void emptyAll() {
        if (emptied) {
            return;
        }
        emptied = true;
        for (Target target : targets) {
            if (replace(target)) {
                target.empty = null;
            } else {
                target.index.removeTagged(target.tags);
            }
            for (PartitionUniqueIndex share : target.shares) {
                share.keysEmptied();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <K> boolean replace(Target target) {
        return ((ChronicleUniqueIndex<K>) target.index).replaceWithEmpty((ChronicleUniqueIndex.EmptyMap<K>) target.empty, target.tags);
    }

    /** Frees the empty maps {@link #emptyAll} did not install. Idempotent. */
    @Override
    public void close() {
        for (Target target : targets) {
            if (target.empty != null) {
                target.index.discard(target.empty);
                target.empty = null;
            }
        }
    }
}
