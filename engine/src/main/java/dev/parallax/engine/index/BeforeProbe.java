package dev.parallax.engine.index;

/**
 * What a caller of {@link LongKeyIndex#get(long, BeforeProbe, Object)} reads right before the index reads
 * its map: after the index took its lock and issued the loads of the probe's first lines, before
 * the map's own lock. Why there: a lock is an atomic instruction, which waits for every load issued
 * before it; a load of a cold line the caller needs anyway (a partition's counters, read before the
 * lookup as a seqlock reads its sequence) then costs its whole miss ahead of the lookup when issued
 * before the call, and overlaps with the probe's misses when issued here.
 */
@FunctionalInterface
public interface BeforeProbe {
    void beforeProbe();
}
