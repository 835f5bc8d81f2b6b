package dev.parallax.engine.expr.eval;

import dev.parallax.engine.expr.Function;
import dev.parallax.engine.sequence.Sequence;
import dev.parallax.engine.sequence.SequenceSession;
import dev.parallax.engine.type.DataType;
import dev.parallax.engine.vector.Batch;
import dev.parallax.engine.vector.BytesVector;
import dev.parallax.engine.vector.ColumnVector;
import dev.parallax.engine.vector.LongVector;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * nextval, currval, setval and lastval, per row. A constant sequence name (the usual case, and
 * always a serial column's default) is resolved once, when the statement starts; nextval then
 * reserves the whole batch's values under one lock of the sequence and records the last one as the
 * session's currval / lastval once per batch.
 */
final class SequenceEvaluator extends Evaluator {
    private final Function function;
    private final Evaluator name;
    private final Evaluator value;
    private final Evaluator isCalled;
    private final SequenceSession session;
    /** The sequence of a constant name, else null (resolved per row through a one-entry cache). */
    private final Sequence constantSequence;
    private final boolean constantNullName;
    private final LongVector output = new LongVector(DataType.BIGINT, INITIAL_CAPACITY);
    private long[] reserved = new long[INITIAL_CAPACITY];
    private byte[] cachedName;
    private long cachedOid = -1;
    private Sequence cachedSequence;

    SequenceEvaluator(Function function, Evaluator[] arguments, SequenceSession session) {
        super(DataType.BIGINT);
        this.function = function;
        this.session = session;
        this.name = arguments.length > 0 ? arguments[0] : null;
        this.value = arguments.length > 1 ? arguments[1] : null;
        this.isCalled = arguments.length > 2 ? arguments[2] : null;
        if (name instanceof ConstantEvaluator constant) {
            constantNullName = constant.isNull();
            constantSequence = constantNullName ? null : constant.type().kind().isText()
                    ? session.sequence(new String(constant.bytesValue(), StandardCharsets.UTF_8)) : session.sequence(constant.longValue());
        } else {
            constantNullName = false;
            constantSequence = null;
        }
    }

    @Override
    ColumnVector evaluate(Batch input, int[] selection, int count) {
        LongVector result = prepare(output, input);
        long[] out = result.values();
        if (function == Function.LASTVAL) {
            for (int index = 0; index < count; index++) {
                out[selection == null ? index : selection[index]] = session.lastValue();
            }
            return result;
        }
        if (constantNullName) {
            for (int index = 0; index < count; index++) {
                result.setNull(selection == null ? index : selection[index]);
            }
            return result;
        }
        if (function == Function.NEXTVAL && constantSequence != null) {
            if (count == 0) {
                return result;
            }
            if (reserved.length < count) {
                reserved = new long[Math.max(count, reserved.length * 2)];
            }
            constantSequence.next(count, reserved);
            for (int index = 0; index < count; index++) {
                out[selection == null ? index : selection[index]] = reserved[index];
            }
            session.record(constantSequence, reserved[count - 1]);
            return result;
        }
        ColumnVector names = constantSequence == null ? name.evaluate(input, selection, count) : null;
        ColumnVector values = value == null ? null : value.evaluate(input, selection, count);
        ColumnVector called = isCalled == null ? null : isCalled.evaluate(input, selection, count);
        for (int index = 0; index < count; index++) {
            int position = selection == null ? index : selection[index];
            if (names != null && names.isNull(position) || values != null && values.isNull(position)
                    || called != null && called.isNull(position)) {
                result.setNull(position);
                continue;
            }
            Sequence sequence = constantSequence != null ? constantSequence : resolve(names, position);
            switch (function) {
                case NEXTVAL -> {
                    long next = sequence.next();
                    session.record(sequence, next);
                    out[position] = next;
                }
                case CURRVAL -> out[position] = session.currentValue(sequence);
                case SETVAL -> {
                    boolean calledFlag = called == null || ((LongVector) called).values()[position] != 0;
                    long set = sequence.set(((LongVector) values).values()[position], calledFlag);
                    if (calledFlag) {
                        session.recordCurrent(sequence, set);
                    }
                    out[position] = set;
                }
                default -> throw new IllegalStateException("not a sequence function: " + function);
            }
        }
        return result;
    }

    /** The sequence a row names, through a one-entry cache (rows usually name one sequence). */
    private Sequence resolve(ColumnVector names, int position) {
        if (names instanceof BytesVector bytes) {
            byte[] text = Arrays.copyOfRange(bytes.data(), bytes.offset(position), bytes.offset(position) + bytes.length(position));
            if (cachedSequence == null || !Arrays.equals(text, cachedName)) {
                cachedSequence = session.sequence(new String(text, StandardCharsets.UTF_8));
                cachedName = text;
                cachedOid = -1;
            }
            return cachedSequence;
        }
        long oid = ((LongVector) names).values()[position];
        if (cachedSequence == null || cachedOid != oid) {
            cachedSequence = session.sequence(oid);
            cachedOid = oid;
            cachedName = null;
        }
        return cachedSequence;
    }
}
