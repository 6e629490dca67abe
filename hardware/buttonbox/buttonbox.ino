// dipclock button box: seven buttons -> one text line per event over USB serial.
//
// Board: Arduino Uno / Nano (any AVR with a USB-serial chip; opening the port resets it, so
// the host always gets a fresh HELLO). Buttons from pins 2..8 to GND, internal pull-ups:
//   pin 2 A (Austria)  3 E (England)  4 F (France)  5 G (Germany)
//   pin 6 I (Italy)    7 R (Russia)   8 T (Turkey)
//
// Protocol version 1, 115200 baud 8N1, ASCII, every line ends with "\n" (see
// hardware/README.md and hardware/serialbox.py, which parses exactly this):
//   HELLO dipclock-box 1   once at start-up
//   K                      heartbeat every HEARTBEAT_MS
//   P <L> <ms>             released before HOLD_MS; <ms> = time from the button going down
//                          to this line being sent (the host subtracts it from the arrival)
//   H <L>                  still down after HOLD_MS (sent once; its release sends nothing)
//
// The box, not the host, times the hold: each line is then a complete event, so a lost line
// loses one event instead of leaving the host thinking a button is still down.

#include <Arduino.h>

const uint8_t BUTTONS = 7;
const uint8_t PINS[BUTTONS] = {2, 3, 4, 5, 6, 7, 8};
const char LETTERS[BUTTONS] = {'A', 'E', 'F', 'G', 'I', 'R', 'T'};

const unsigned long DEBOUNCE_MS = 20;    // reading must be steady this long to count
const unsigned long HOLD_MS = 3000;      // down this long = hold (out of / back into the game)
const unsigned long HEARTBEAT_MS = 1000; // "K" so the host can tell a hung box from a quiet one

struct Button {
  bool raw;                 // last reading (true = down, pin pulled to GND)
  bool down;                // debounced state
  bool held;                // hold already sent for this push, or push began before boot
  unsigned long rawSince;   // when the reading last changed (= when it settled)
  unsigned long downSince;  // when the debounced push began
};

Button buttons[BUTTONS];
unsigned long lastHeartbeat = 0;

// Build the whole line first and write it in one call, so it leaves the box contiguous.
void sendLine(const char *text) {
  char line[24];
  size_t n = 0;
  while (text[n] != '\0' && n < sizeof(line) - 1) {
    line[n] = text[n];
    n++;
  }
  line[n++] = '\n';
  Serial.write(reinterpret_cast<const uint8_t *>(line), n);
}

void sendPress(uint8_t i, unsigned long ms) {
  // "P A 2999": unsigned long to decimal by hand (no sprintf: it pulls in a lot on AVR).
  char text[20] = {'P', ' ', LETTERS[i], ' '};
  char digits[11];
  uint8_t d = 0;
  do {
    digits[d++] = char('0' + ms % 10);
    ms /= 10;
  } while (ms > 0 && d < sizeof(digits));
  uint8_t n = 4;
  while (d > 0) {
    text[n++] = digits[--d];
  }
  text[n] = '\0';
  sendLine(text);
}

void sendHold(uint8_t i) {
  char text[4] = {'H', ' ', LETTERS[i], '\0'};
  sendLine(text);
}

void setup() {
  Serial.begin(115200);
  unsigned long now = millis();
  for (uint8_t i = 0; i < BUTTONS; i++) {
    pinMode(PINS[i], INPUT_PULLUP);
  }
  delay(5);  // let the pull-ups charge the wires before the first reading
  for (uint8_t i = 0; i < BUTTONS; i++) {
    bool raw = digitalRead(PINS[i]) == LOW;
    // A button already down at boot (stuck, shorted, leaned on) starts "held": it sends
    // nothing until released and pushed again, so it cannot fake a 3 s hold.
    buttons[i] = Button{raw, raw, raw, now, now};
  }
  sendLine("HELLO dipclock-box 1");
  lastHeartbeat = millis();
}

void loop() {
  unsigned long now = millis();  // unsigned differences below survive the 49-day wrap
  for (uint8_t i = 0; i < BUTTONS; i++) {
    Button &b = buttons[i];
    bool raw = digitalRead(PINS[i]) == LOW;
    if (raw != b.raw) {
      b.raw = raw;
      b.rawSince = now;
    } else if (raw != b.down && now - b.rawSince >= DEBOUNCE_MS) {
      b.down = raw;
      if (raw) {
        b.downSince = b.rawSince;  // when it settled, not when the debounce gave its verdict
        b.held = false;
      } else if (!b.held) {
        sendPress(i, now - b.downSince);
      }
    }
    if (b.down && !b.held && now - b.downSince >= HOLD_MS) {
      b.held = true;
      sendHold(i);
    }
  }
  if (now - lastHeartbeat >= HEARTBEAT_MS) {
    lastHeartbeat = now;
    sendLine("K");
  }
}
