package dev.parallax.engine.expr.eval;

import dev.parallax.engine.vector.Batch;

/** Conjunction as successive filtering: each condition only sees the rows the previous ones kept. */
final class AndSelector extends Selector {
    private final Selector[] conditions;

    AndSelector(Selector[] conditions) {
        this.conditions = conditions;
    }

    @Override
    int select(Batch input, int[] selection, int count, int[] out) {
        int selected = conditions[0].select(input, selection, count, out);
        for (int index = 1; index < conditions.length && selected > 0; index++) {
            selected = conditions[index].select(input, out, selected, out);
        }
        return selected;
    }
}
