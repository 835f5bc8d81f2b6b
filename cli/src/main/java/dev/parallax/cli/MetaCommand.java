package dev.parallax.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A backslash command line such as {@code \timing on}: its name (without the backslash) and its
 * arguments, split at whitespace; a single-quoted argument keeps its spaces and reads {@code ''}
 * as one quote, as psql does. {@code rawArguments} is the text after the name as typed, for
 * commands that take the rest of the line as it is ({@code \copy}).
 */
record MetaCommand(String name, List<String> arguments, String rawArguments) {

    MetaCommand(String name, List<String> arguments) {
        this(name, arguments, String.join(" ", arguments));
    }

    /** This command with other arguments (after variable substitution). */
    MetaCommand withArguments(List<String> newArguments) {
        return new MetaCommand(name, List.copyOf(newArguments), rawArguments);
    }

    /** Parses {@code line}, whose first non-blank character is a backslash. */
    static MetaCommand parse(String line) {
        String text = line.strip().substring(1);
        int nameEnd = 0;
        while (nameEnd < text.length() && !Character.isWhitespace(text.charAt(nameEnd))) {
            nameEnd++;
        }
        String name = text.substring(0, nameEnd);
        List<String> arguments = new ArrayList<>();
        StringBuilder argument = new StringBuilder();
        boolean inArgument = false;
        boolean quoted = false;
        for (int index = nameEnd; index < text.length(); index++) {
            char character = text.charAt(index);
            if (quoted) {
                if (character == '\'') {
                    if (index + 1 < text.length() && text.charAt(index + 1) == '\'') {
                        argument.append('\'');
                        index++;
                    } else {
                        quoted = false;
                    }
                } else {
                    argument.append(character);
                }
            } else if (Character.isWhitespace(character)) {
                if (inArgument) {
                    arguments.add(argument.toString());
                    argument.setLength(0);
                    inArgument = false;
                }
            } else if (character == '\'') {
                quoted = true;
                inArgument = true;
            } else {
                argument.append(character);
                inArgument = true;
            }
        }
        if (inArgument) {
            arguments.add(argument.toString());
        }
        return new MetaCommand(name, List.copyOf(arguments), text.substring(nameEnd).strip());
    }
}
