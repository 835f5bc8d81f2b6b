package dev.parallax.cli;

import dev.parallax.Result;

import java.io.PrintStream;

/** Prints the rows of a result in one of psql's output formats. */
public interface ResultPrinter {
    /**
     * Reads every remaining batch of {@code result} (a row-returning statement) and prints header,
     * rows and footer to {@code out}. Returns the number of rows printed. Errors of the running
     * query propagate as they surface from the result; output already written stays written.
     */
    long print(Result result, PrintStream out);

    /** The printer for {@code options}, with no terminal ({@code \x auto} prints aligned). */
    static ResultPrinter create(PrintOptions options) {
        return create(options, () -> 0);
    }

    /** The printer for {@code options}; {@code terminalWidth} gives the columns {@code \x auto} fits into (0: none). */
    static ResultPrinter create(PrintOptions options, java.util.function.IntSupplier terminalWidth) {
        if (options.expanded() == ExpandedMode.AUTO && options.format() == OutputFormat.ALIGNED) {
            return new AutoExpandedResultPrinter(options.tuplesOnly(), options.nullDisplay(), terminalWidth);
        }
        if (options.expanded() == ExpandedMode.ON && options.format() == OutputFormat.ALIGNED) {
            return new ExpandedResultPrinter(options.tuplesOnly(), options.nullDisplay());
        }
        return switch (options.format()) {
            case ALIGNED -> new AlignedResultPrinter(options.tuplesOnly(), options.nullDisplay());
            case UNALIGNED -> new UnalignedResultPrinter(options.fieldSeparator(), options.tuplesOnly(),
                    options.nullDisplay());
            case CSV -> new CsvResultPrinter(options.tuplesOnly(), options.nullDisplay());
        };
    }
}
