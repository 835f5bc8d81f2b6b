package dev.parallax.engine.type;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** LikePattern.indexOf against String.indexOf over random texts of a small alphabet (many partial matches), within sub-ranges. */
class LikePatternIndexOfTest {
    private static String random(Random random, int length) {
        StringBuilder text = new StringBuilder();
        for (int index = 0; index < length; index++) {
            text.append("abs ".charAt(random.nextInt(4)));
        }
        return text.toString();
    }

    @Test
    void findsTheFirstOccurrenceLikeStringIndexOf() {
        Random random = new Random(5);
        for (int trial = 0; trial < 20000; trial++) {
            String text = random(random, random.nextInt(40));
            String needle = random(random, 1 + random.nextInt(5));
            int from = text.isEmpty() ? 0 : random.nextInt(text.length() + 1);
            int to = from + random.nextInt(text.length() - from + 1);
            String range = text.substring(from, to);
            byte[] data = ("xy" + text).getBytes(StandardCharsets.US_ASCII);
            int expected = range.indexOf(needle);
            assertEquals(expected, LikePattern.indexOf(data, from + 2, to - from, needle.getBytes(StandardCharsets.US_ASCII)),
                    "'" + needle + "' in '" + range + "'");
        }
        byte[] data = "special requests".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0, LikePattern.indexOf(data, 0, data.length, new byte[0]));
        assertEquals(8, LikePattern.indexOf(data, 0, data.length, "requests".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-1, LikePattern.indexOf(data, 0, data.length - 1, "requests".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(12, LikePattern.indexOf(data, 1, data.length - 1, "s".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void likeMatchesWithSegments() {
        LikePattern pattern = LikePattern.compile("%special%requests%");
        for (String text : new String[]{"special requests", "xx special yy requests zz", "specialrequests", "requests special",
                "special request", "specia requests", "spspecial rrequests"}) {
            byte[] data = text.getBytes(StandardCharsets.UTF_8);
            boolean expected = text.matches(".*special.*requests.*");
            assertEquals(expected, pattern.matches(data, 0, data.length), text);
        }
    }
}
