package dev.parallax.engine.operator.unnest;

import dev.parallax.engine.exec.ExecutionContext;
import dev.parallax.engine.exec.Operator;
import dev.parallax.engine.expr.eval.VectorExpression;
import dev.parallax.engine.type.ArrayValue;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.DoubleVector;
import dev.parallax.engine.vector.LongVector;

/**
 * Expands each input row into one row per element of its array (see {@code UnnestNode}). An input
 * batch can give more rows than an output batch holds: the operator then remembers the input row
 * and element it stopped at and resumes there on the next call.
 */
public final class UnnestOperator implements Operator {
    private final ExecutionContext context;
    private final Operator input;
    private final VectorExpression array;
    private final boolean keepInput;
    private final boolean withOrdinality;
    private final boolean outer;
    private final Batch output;
    private final int elementColumn;
    private Batch current;
    private ColumnVector currentArrays;
    /** Index into the current batch's live rows, and the element of that row, to continue from. */
    private int rowIndex;
    private int elementIndex;

    public UnnestOperator(ExecutionContext context, Operator input, VectorExpression array, boolean keepInput,
                          boolean withOrdinality, boolean outer, Batch output) {
        this.context = context;
        this.input = input;
        this.array = array;
        this.keepInput = keepInput;
        this.withOrdinality = withOrdinality;
        this.outer = outer;
        this.output = output;
        this.elementColumn = output.columnCount() - (withOrdinality ? 2 : 1);
    }

    @Override
    public Batch next() {
        context.checkCancelled();
        output.reset();
        int capacity = Batch.DEFAULT_CAPACITY;
        int produced = 0;
        while (produced < capacity) {
            if (current == null || rowIndex >= current.selectedCount()) {
                current = input.next();
                if (current == null) {
                    break;
                }
                currentArrays = array.evaluate(current);
                rowIndex = 0;
                elementIndex = 0;
            }
            int position = current.position(rowIndex);
            int count = 0;
            byte[] data = null;
            int offset = 0;
            if (!currentArrays.isNull(position)) {
                BytesVector arrays = (BytesVector) currentArrays;
                data = arrays.data();
                offset = arrays.offset(position);
                count = ArrayValue.count(data, offset);
            }
            if (count == 0) {
                if (outer && elementIndex == 0) {
                    copyInput(position, produced);
                    output.column(elementColumn).setNull(produced);
                    if (withOrdinality) {
                        output.column(elementColumn + 1).setNull(produced);
                    }
                    produced++;
                }
                rowIndex++;
                elementIndex = 0;
                continue;
            }
            while (elementIndex < count && produced < capacity) {
                copyInput(position, produced);
                writeElement(data, offset, elementIndex, produced);
                if (withOrdinality) {
                    ((LongVector) output.column(elementColumn + 1)).set(produced, elementIndex + 1L);
                }
                elementIndex++;
                produced++;
            }
            if (elementIndex >= count) {
                rowIndex++;
                elementIndex = 0;
            }
        }
        if (produced == 0) {
            return null;
        }
        output.setRowCount(produced);
        return output;
    }

    private void copyInput(int position, int target) {
        if (!keepInput) {
            return;
        }
        for (int column = 0; column < elementColumn; column++) {
            output.column(column).copyFrom(current.column(column), position, target);
        }
    }

    private void writeElement(byte[] data, int offset, int index, int target) {
        ColumnVector element = output.column(elementColumn);
        if (ArrayValue.isNull(data, offset, index)) {
            element.setNull(target);
            return;
        }
        switch (element) {
            case LongVector longs -> longs.set(target, ArrayValue.longAt(data, offset, index));
            case DoubleVector doubles -> doubles.set(target, ArrayValue.doubleAt(data, offset, index));
            case BytesVector bytes -> bytes.set(target, data, ArrayValue.bytesOffset(data, offset, index),
                    ArrayValue.bytesLength(data, offset, index));
        }
    }

    @Override
    public void close() {
        input.close();
    }
}
