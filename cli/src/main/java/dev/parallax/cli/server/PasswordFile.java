package dev.parallax.cli.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The users the server accepts with SCRAM-SHA-256: a file of {@code user:password} lines (blank
 * lines and lines starting with {@code #} are skipped; the password is everything after the first
 * colon).
 */
final class PasswordFile {
    private PasswordFile() {
    }

    /** The users and passwords of {@code file}; IllegalArgumentException naming the line when one is malformed. */
    static Map<String, String> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Map<String, String> passwords = new LinkedHashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || colon == line.length() - 1) {
                throw new IllegalArgumentException(file + ":" + (index + 1) + ": expected user:password");
            }
            passwords.put(line.substring(0, colon), line.substring(colon + 1));
        }
        if (passwords.isEmpty()) {
            throw new IllegalArgumentException(file + ": no user:password line");
        }
        return passwords;
    }
}
