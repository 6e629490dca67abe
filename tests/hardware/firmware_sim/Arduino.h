// Just enough of the Arduino API to run hardware/buttonbox/buttonbox.ino on a PC (see sim.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

const int LOW = 0;
const int HIGH = 1;
const int INPUT_PULLUP = 2;

unsigned long millis();
void delay(unsigned long ms);
void pinMode(uint8_t pin, int mode);
int digitalRead(uint8_t pin);

struct SerialPort {
  void begin(unsigned long baud);
  size_t write(const uint8_t *data, size_t n);
};
extern SerialPort Serial;
