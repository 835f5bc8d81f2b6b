package dev.parallax.engine.index;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.hash.serialization.BytesReader;
import net.openhft.chronicle.hash.serialization.BytesWriter;
import net.openhft.chronicle.hash.serialization.SizedReader;
import net.openhft.chronicle.hash.serialization.impl.EnumMarshallable;

/**
 * Reads and writes a {@link LongCell} as 8 bytes, filling the caller's instance when given one. Also
 * the sized reader of keys handed to Chronicle through {@link LongCellDataAccess}.
 */
final class LongCellMarshaller implements BytesReader<LongCell>, BytesWriter<LongCell>, SizedReader<LongCell>,
        EnumMarshallable<LongCellMarshaller> {
    static final LongCellMarshaller INSTANCE = new LongCellMarshaller();

    private LongCellMarshaller() {
    }

    @Override
    public LongCell read(Bytes<?> in, LongCell using) {
        LongCell target = using != null ? using : new LongCell();
        target.value = in.readLong();
        return target;
    }

    @Override
    public LongCell read(Bytes<?> in, long size, LongCell using) {
        return read(in, using);
    }

    @Override
    public void write(Bytes<?> out, LongCell toWrite) {
        out.writeLong(toWrite.value);
    }

    @Override
    public LongCellMarshaller readResolve() {
        return INSTANCE;
    }
}
