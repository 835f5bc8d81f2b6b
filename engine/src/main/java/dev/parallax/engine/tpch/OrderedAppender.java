package dev.parallax.engine.tpch;

import dev.parallax.engine.storage.TableStorage;
import dev.parallax.engine.vector.Batch;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Appends the batches of a table generated in parts by several threads, in part order, so the
 * table holds its rows in dbgen's order whatever thread finishes first. The part whose turn it is
 * appends directly; later parts hold their batches until their turn comes. Thread-safe.
 */
final class OrderedAppender {
    private final TableStorage storage;
    private final LongConsumer appendedRows;
    private final List<List<Batch>> heldBatches;
    private final boolean[] finished;
    private int currentPart;

    /** {@code appendedRows} is told each batch's row count once it is in the table. */
    OrderedAppender(TableStorage storage, int partCount, LongConsumer appendedRows) {
        this.storage = storage;
        this.appendedRows = appendedRows;
        this.heldBatches = new ArrayList<>(partCount);
        for (int part = 0; part < partCount; part++) {
            heldBatches.add(new ArrayList<>());
        }
        this.finished = new boolean[partCount];
    }

    /**
     * Hands over a full batch of {@code part}. Returns true when it was appended (the caller may
     * refill it), false when it is held for later (the caller must use a new batch).
     */
    synchronized boolean submit(int part, Batch batch) {
        if (part == currentPart) {
            append(batch);
            return true;
        }
        heldBatches.get(part).add(batch);
        return false;
    }

    /** Declares {@code part} complete; appends the held batches of the parts whose turn comes next. */
    synchronized void finish(int part) {
        finished[part] = true;
        while (currentPart < finished.length && finished[currentPart]) {
            currentPart++;
            if (currentPart < finished.length) {
                List<Batch> held = heldBatches.get(currentPart);
                for (Batch batch : held) {
                    append(batch);
                }
                held.clear();
            }
        }
    }

    private void append(Batch batch) {
        storage.append(batch);
        appendedRows.accept(batch.selectedCount());
    }
}
