package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;


/**
 * Disjunction: each condition runs on the rows no earlier condition accepted, and the accepted
 * sets are merged in position order.
 */
final class OrSelector extends Selector {
    private final Selector[] conditions;
    private int[] accepted = new int[0];
    private int[] remaining = new int[0];
    private int[] matched = new int[0];
    private int[] merged = new int[0];

    OrSelector(Selector[] conditions) {
        this.conditions = conditions;
    }

    @Override
    int select(Batch input, int[] selection, int count, int[] out) {
        if (accepted.length < count) {
            accepted = new int[Math.max(count, input.rowCount())];
            remaining = new int[accepted.length];
            matched = new int[accepted.length];
            merged = new int[accepted.length];
        }
        int remainingCount = count;
        if (selection == null) {
            for (int position = 0; position < count; position++) {
                remaining[position] = position;
            }
        } else {
            System.arraycopy(selection, 0, remaining, 0, count);
        }
        int acceptedCount = 0;
        for (Selector condition : conditions) {
            if (remainingCount == 0) {
                break;
            }
            int matchedCount = condition.select(input, remaining, remainingCount, matched);
            if (matchedCount == 0) {
                continue;
            }
            // Merge matched into accepted; drop matched from remaining (both ascending).
            int left = 0;
            int right = 0;
            int written = 0;
            while (left < acceptedCount || right < matchedCount) {
                if (right >= matchedCount || (left < acceptedCount && accepted[left] < matched[right])) {
                    merged[written++] = accepted[left++];
                } else {
                    merged[written++] = matched[right++];
                }
            }
            int[] swap = accepted;
            accepted = merged;
            merged = swap;
            acceptedCount = written;
            int kept = 0;
            right = 0;
            for (int index = 0; index < remainingCount; index++) {
                int position = remaining[index];
                if (right < matchedCount && matched[right] == position) {
                    right++;
                } else {
                    remaining[kept++] = position;
                }
            }
            remainingCount = kept;
        }
        System.arraycopy(accepted, 0, out, 0, acceptedCount);
        return acceptedCount;
    }
}
