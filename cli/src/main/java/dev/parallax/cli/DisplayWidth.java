package dev.parallax.cli;

/**
 * Screen columns a piece of text takes in a terminal, as psql measures them (its {@code ucs_wcwidth}):
 * East Asian wide and full-width characters and wide emoji take two columns, combining marks and
 * other zero-width characters none, everything else one.
 */
final class DisplayWidth {
    private DisplayWidth() {
    }

    /** Columns taken by {@code text}, which holds no control characters (see {@link CellText}). */
    static int of(String text) {
        int width = 0;
        for (int index = 0; index < text.length(); ) {
            int codePoint = text.codePointAt(index);
            width += ofCodePoint(codePoint);
            index += Character.charCount(codePoint);
        }
        return width;
    }

    static int ofCodePoint(int codePoint) {
        if (codePoint < 0x300) {
            return 1;
        }
        int type = Character.getType(codePoint);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || (codePoint >= 0x1160 && codePoint <= 0x11FF)) {
            return 0;
        }
        return isWide(codePoint) ? 2 : 1;
    }

    private static boolean isWide(int codePoint) {
        return codePoint >= 0x1100
                && (codePoint <= 0x115F
                || codePoint == 0x2329 || codePoint == 0x232A
                || (codePoint >= 0x2E80 && codePoint <= 0xA4CF && codePoint != 0x303F)
                || (codePoint >= 0xAC00 && codePoint <= 0xD7A3)
                || (codePoint >= 0xF900 && codePoint <= 0xFAFF)
                || (codePoint >= 0xFE10 && codePoint <= 0xFE19)
                || (codePoint >= 0xFE30 && codePoint <= 0xFE6F)
                || (codePoint >= 0xFF00 && codePoint <= 0xFF60)
                || (codePoint >= 0xFFE0 && codePoint <= 0xFFE6)
                || (codePoint >= 0x1F300 && codePoint <= 0x1F64F)
                || (codePoint >= 0x1F900 && codePoint <= 0x1F9FF)
                || (codePoint >= 0x20000 && codePoint <= 0x2FFFD)
                || (codePoint >= 0x30000 && codePoint <= 0x3FFFD));
    }
}
