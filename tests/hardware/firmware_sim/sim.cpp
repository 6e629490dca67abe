// Runs the button box sketch against a simulated clock and pins, driven by a script on stdin:
//   pin <n> <0|1>   set the level on pin n (1 = released, pull-up; 0 = pushed to GND)
//   boot            call setup()
//   run <ms>        call loop() once per simulated millisecond for <ms> ms
// Every Serial.write is printed as "<millis>\t<bytes>" so the test can check the timing; lines
// from the simulator itself start with '#'.
#include "Arduino.h"

#include <cstdio>
#include <cstring>

static unsigned long now_ms = 0;
static int levels[32];
static unsigned long baud_rate = 0;

unsigned long millis() { return now_ms; }
void delay(unsigned long ms) { now_ms += ms; }
void pinMode(uint8_t, int) {}
int digitalRead(uint8_t pin) { return levels[pin]; }
void SerialPort::begin(unsigned long baud) { baud_rate = baud; }
size_t SerialPort::write(const uint8_t *data, size_t n) {
  std::printf("%lu\t", now_ms);
  std::fwrite(data, 1, n, stdout);
  return n;
}
SerialPort Serial;

#include BUTTONBOX_INO

int main() {
  for (int &level : levels) level = HIGH;
  char cmd[16];
  while (std::scanf("%15s", cmd) == 1) {
    if (std::strcmp(cmd, "pin") == 0) {
      int pin = 0, level = 0;
      if (std::scanf("%d %d", &pin, &level) != 2 || pin < 0 || pin >= 32) return 2;
      levels[pin] = level;
    } else if (std::strcmp(cmd, "boot") == 0) {
      setup();
      std::printf("#baud %lu\n", baud_rate);
    } else if (std::strcmp(cmd, "run") == 0) {
      unsigned long ms = 0;
      if (std::scanf("%lu", &ms) != 1) return 2;
      for (unsigned long i = 0; i < ms; i++) {
        loop();
        now_ms++;
      }
    } else {
      return 2;
    }
  }
  return 0;
}
