package dev.parallax.engine.index;

/**
 * A mutable long that Chronicle Map serializes as 8 bytes: reused per thread as key and value
 * holder so index operations neither box nor allocate (a boxed {@code Long} key costs an
 * allocation per call; Chronicle's generated {@code LongValue} took 6 s of runtime compilation
 * to create on this machine).
 */
final class LongCell {
    long value;

    LongCell() {
    }

    LongCell(long value) {
        this.value = value;
    }
}
