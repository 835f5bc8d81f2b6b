package dev.parallax.engine.spill;

import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.vector.Batch;

import java.util.List;

/**
 * Reads finished spill files one after another as an operator's input: the build or probe side
 * of one batch of a spilled hash join. Closing it closes the open reader; the files stay (their
 * owner deletes them).
 */
public final class SpillFileScan implements Operator {
    private final List<SpillFile> files;
    private int nextFile;
    private SpillReader reader;

    public SpillFileScan(List<SpillFile> files) {
        this.files = List.copyOf(files);
    }

    @Override
    public Batch next() {
        while (true) {
            if (reader != null) {
                Batch batch = reader.next();
                if (batch != null) {
                    return batch;
                }
                reader.close();
                reader = null;
            }
            if (nextFile == files.size()) {
                return null;
            }
            reader = files.get(nextFile++).openReader();
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
