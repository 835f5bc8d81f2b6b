package dev.parallax.engine.index;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.hash.serialization.SizedReader;
import net.openhft.chronicle.hash.serialization.SizedWriter;
import net.openhft.chronicle.hash.serialization.impl.EnumMarshallable;

/** Reads and writes a {@link KeyBytes} as its raw bytes (Chronicle stores the size beside them). */
final class KeyBytesMarshaller implements SizedReader<KeyBytes>, SizedWriter<KeyBytes>, EnumMarshallable<KeyBytesMarshaller> {
    static final KeyBytesMarshaller INSTANCE = new KeyBytesMarshaller();

    private KeyBytesMarshaller() {
    }

    @Override
    public KeyBytes read(Bytes<?> in, long size, KeyBytes using) {
        int length = Math.toIntExact(size);
        KeyBytes target = using != null ? using : new KeyBytes(length);
        target.clear();
        target.ensureRoom(length);
        in.read(target.data, 0, length);
        target.length = length;
        return target;
    }

    @Override
    public long size(KeyBytes toWrite) {
        return toWrite.length;
    }

    @Override
    public void write(Bytes<?> out, long size, KeyBytes toWrite) {
        out.write(toWrite.data, 0, toWrite.length);
    }

    @Override
    public KeyBytesMarshaller readResolve() {
        return INSTANCE;
    }
}
