package dev.parallax.engine.index;

import net.openhft.chronicle.algo.hashing.LongHashFunction;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.RandomDataInput;
import net.openhft.chronicle.bytes.RandomDataOutput;
import net.openhft.chronicle.hash.AbstractData;
import net.openhft.chronicle.hash.Data;
import net.openhft.chronicle.hash.serialization.DataAccess;
import net.openhft.chronicle.wire.WireIn;
import net.openhft.chronicle.wire.WireOut;

/**
 * Hands a {@link LongCell} key to Chronicle Map as its 8 bytes without serializing it: the hash is
 * {@code hashLong} of the value and the comparison with a stored key one 8-byte read. Through
 * {@link LongCellMarshaller} (a writer) Chronicle copied each key into a heap buffer, hashed it
 * byte-wise and compared it byte-wise; those were a third of a cached point lookup's CPU (JFR,
 * PointSelectBenchmark at 1,000 rows). The hash equals the byte-wise hash of the key as the
 * marshaller writes it (xxHash's {@code hashLong} is defined on the value's native-order bytes),
 * so both describe the same map. One instance per thread: Chronicle copies it per query context.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class LongCellDataAccess extends AbstractData<LongCell> implements DataAccess<LongCell>, Data<LongCell> {
    /** The key's bytes, written only when Chronicle asks for them (an insert copies them into the entry). */
    private transient BytesStore bytes;
    private transient boolean bytesWritten;
    private transient long value;

    LongCellDataAccess() {
        bytes = BytesStore.wrap(new byte[8]);
    }

    @Override
    public Data<LongCell> getData(LongCell instance) {
        value = instance.value;
        bytesWritten = false;
        return this;
    }

    @Override
    public RandomDataInput bytes() {
        if (!bytesWritten) {
            bytes.writeLong(0, value);
            bytesWritten = true;
        }
        return bytes;
    }

    @Override
    public long offset() {
        return 0;
    }

    @Override
    public long size() {
        return 8;
    }

    @Override
    public long hash(LongHashFunction function) {
        return function.hashLong(value);
    }

    @Override
    public boolean equivalent(RandomDataInput source, long sourceOffset) {
        return source.readLong(sourceOffset) == value;
    }

    @Override
    public void writeTo(RandomDataOutput target, long targetOffset) {
        target.writeLong(targetOffset, value);
    }

    @Override
    public LongCell get() {
        return new LongCell(value);
    }

    @Override
    public LongCell getUsing(LongCell using) {
        LongCell target = using != null ? using : new LongCell();
        target.value = value;
        return target;
    }

    @Override
    public void uninit() {
        value = 0;
    }

    @Override
    public DataAccess<LongCell> copy() {
        return new LongCellDataAccess();
    }

    @Override
    public void readMarshallable(WireIn wire) {
        // No configuration: a copy made from the map's header starts with its own buffer.
        bytes = BytesStore.wrap(new byte[8]);
    }

    @Override
    public void writeMarshallable(WireOut wire) {
        // No configuration to write.
    }
}
