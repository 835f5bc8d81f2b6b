package dev.parallax;

import dev.parallax.engine.load.CopyFormat;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The client's end of {@code COPY ... FROM STDIN} and {@code COPY ... TO STDOUT}: the wire server
 * turns it into CopyIn/CopyOut messages, the shell's {@code \copy} into a local file. Called on the
 * thread running the statement, at most once per statement.
 */
public interface CopyChannel {
    /**
     * COPY FROM STDIN starts: the data to load, in {@code format}, as UTF-8. The stream ends at the
     * end of the data; an IOException from it fails the COPY (the table is left unchanged).
     */
    InputStream openInput(int columnCount, CopyFormat format);

    /**
     * COPY TO STDOUT starts: where the lines go, as UTF-8. The session closes the stream when the
     * last row is written, also when the statement fails.
     */
    OutputStream openOutput(int columnCount, CopyFormat format);
}
