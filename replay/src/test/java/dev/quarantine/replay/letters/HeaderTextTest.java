package dev.quarantine.replay.letters;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;


import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class HeaderTextTest {

    @Test
    void keepsShortTextAsItIs() {
        assertThat(HeaderText.decode(bytes("orders"), 10)).isEqualTo("orders");
        assertThat(HeaderText.decode(bytes("0123456789"), 10)).isEqualTo("0123456789");
    }

    @Test
    void cutsLongTextAndMarksIt() {
        assertThat(HeaderText.decode(bytes("0123456789A"), 10)).isEqualTo("0123456789" + HeaderText.CUT_MARK);
        assertThat(HeaderText.decode(bytes("y".repeat(10_000_000)), 10)).isEqualTo("yyyyyyyyyy" + HeaderText.CUT_MARK);
    }

    @Test
    void cutsMultiByteTextWithoutCallingTheCutMalformed() {
        String euros = "€".repeat(50); // 3 bytes each: the 44-byte window ends inside a character

        assertThat(HeaderText.decode(bytes(euros), 10)).isEqualTo("€".repeat(10) + HeaderText.CUT_MARK);
    }

    @Test
    void readsBytesThatAreNotUtf8AsUnparseable() {
        assertThat(HeaderText.decode(new byte[] {(byte) 0xC3, 0x28}, 10)).isEqualTo(HeaderText.UNPARSEABLE);
        assertThat(HeaderText.decode(new byte[] {'a', (byte) 0xE2, (byte) 0x82}, 10)).isEqualTo(HeaderText.UNPARSEABLE);
    }

    @Test
    void readsTheLastOfRepeatedHeadersAndNoNumberFromALongOrMalformedOne() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("n", bytes("1"));
        headers.add("n", bytes(" 42 "));
        headers.add("long", bytes("9".repeat(30)));
        headers.add("text", bytes("abc"));
        headers.add("null", null);

        assertThat(HeaderText.number(headers, "n")).isEqualTo(42L);
        assertThat(HeaderText.number(headers, "long")).isNull();
        assertThat(HeaderText.number(headers, "text")).isNull();
        assertThat(HeaderText.last(headers, "null", 10)).isNull();
        assertThat(HeaderText.last(headers, "absent", 10)).isNull();
    }
}
