package dev.parallax.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A value (or header) as the aligned format shows it: split into lines at newlines, tabs expanded
 * to the next multiple of eight columns, carriage returns shown as {@code \r} and other control
 * characters as {@code \xNN} — what psql's {@code pg_wcsformat} does, so the columns stay aligned.
 */
record CellText(String[] lines, int[] widths, int maxWidth) {

    static final CellText EMPTY = new CellText(new String[] {""}, new int[] {0}, 0);

    static CellText of(String value) {
        if (value == null || value.isEmpty()) {
            return EMPTY;
        }
        if (isPlain(value)) {
            int width = DisplayWidth.of(value);
            return new CellText(new String[] {value}, new int[] {width}, width);
        }
        List<String> lines = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        int lineWidth = 0;
        for (int index = 0; index < value.length(); ) {
            int codePoint = value.codePointAt(index);
            index += Character.charCount(codePoint);
            if (codePoint == '\n') {
                lines.add(line.toString());
                widths.add(lineWidth);
                line.setLength(0);
                lineWidth = 0;
            } else if (codePoint == '\r') {
                line.append("\\r");
                lineWidth += 2;
            } else if (codePoint == '\t') {
                do {
                    line.append(' ');
                    lineWidth++;
                } while (lineWidth % 8 != 0);
            } else if (codePoint < 0x20 || codePoint == 0x7F) {
                line.append(String.format("\\x%02X", codePoint));
                lineWidth += 4;
            } else {
                line.appendCodePoint(codePoint);
                lineWidth += DisplayWidth.ofCodePoint(codePoint);
            }
        }
        lines.add(line.toString());
        widths.add(lineWidth);
        int[] widthArray = new int[widths.size()];
        int maxWidth = 0;
        for (int index = 0; index < widthArray.length; index++) {
            widthArray[index] = widths.get(index);
            maxWidth = Math.max(maxWidth, widthArray[index]);
        }
        return new CellText(lines.toArray(String[]::new), widthArray, maxWidth);
    }

    int lineCount() {
        return lines.length;
    }

    private static boolean isPlain(String value) {
        for (int index = 0; index < value.length(); index++) {
            char character = value.charAt(index);
            if (character < 0x20 || character == 0x7F) {
                return false;
            }
        }
        return true;
    }
}
