/* ATmega328P implementation of hal.h: UART with interrupt rings, 1 ms tick, watchdog, entropy, SPI. */
#include "hal.h"

#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>

#include "fb_protocol.h"

#define RX_RING 64   /* power of two */
#define TX_RING 128  /* power of two */

static volatile uint8_t rx_buf[RX_RING], rx_head, rx_tail;
static volatile uint8_t tx_buf[TX_RING], tx_head, tx_tail;
static volatile uint32_t millis;

/* Left alone by the C start-up code: after a power-on it holds whatever the cells settled to. */
static uint8_t noise[16] __attribute__((section(".noinit")));
static uint8_t mcusr_at_boot __attribute__((section(".noinit")));
uint8_t reboot_marker __attribute__((section(".noinit")));  /* 0xA5: we rebooted on purpose */

/* Runs before main: the watchdog stays armed after a watchdog reset, so stop it first. */
void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void) {
    mcusr_at_boot = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

void hal_init(void) {
    /* outputs */
    DDRC |= _BV(PC3);
    PORTD |= _BV(PD2) | _BV(PD3);  /* pull-ups for door and jam */
#if defined(DEVICE_SHOE)
    DDRD |= _BV(PD6);
    PORTD |= _BV(PD4) | _BV(PD5) | _BV(PD7);
    DDRB |= _BV(PB2) | _BV(PB3) | _BV(PB5);           /* SS, MOSI, SCK */
    PORTB |= _BV(PB2);
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(SPR0);          /* master, 1 MHz */
#elif defined(DEVICE_SHUFFLER)
    DDRD |= _BV(PD4) | _BV(PD5);
    PORTD |= _BV(PD6);
    PORTB |= _BV(PB0);
    PCMSK0 = _BV(PCINT0);                             /* card counter on D8 */
    PCICR = _BV(PCIE0);
#elif defined(DEVICE_REELS)
    DDRD |= 0xF0;
    DDRB |= 0x0F | _BV(PB5);
    DDRC |= 0x07;
    PORTB |= _BV(PB4);
    PORTC |= _BV(PC4) | _BV(PC5);
#endif
    /* UART 115200 8N1, double speed (UBRR 16 -> 117647 baud, -2.1 %, as every Arduino does) */
    UBRR0 = (uint16_t)(F_CPU_HZ / (8 * UART_BAUD) - 1);
    UCSR0A = _BV(U2X0);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    /* Timer0: 1 ms tick */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    wdt_enable(WDTO_500MS);
    sei();
}

ISR(TIMER0_COMPA_vect) { millis++; }

uint32_t hal_millis(void) {
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = millis; }
    return now;
}

void hal_idle(void) {
    set_sleep_mode(SLEEP_MODE_IDLE);
    cli();
    if (rx_head == rx_tail) {
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
    }
    sei();
}

ISR(USART_RX_vect) {
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_RING - 1));
    if (next != rx_tail) {  /* a full ring drops the byte; the frame's CRC fails and the host retries */
        rx_buf[rx_head] = byte;
        rx_head = next;
    }
}

int16_t uart_getc(void) {
    if (rx_head == rx_tail) return -1;
    uint8_t byte = rx_buf[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) & (RX_RING - 1));
    return byte;
}

uint8_t uart_tx_room(void) {
    return (uint8_t)((tx_tail - tx_head - 1) & (TX_RING - 1));
}

uint8_t uart_tx_idle(void) {
    return tx_head == tx_tail && (UCSR0A & _BV(TXC0));
}

void uart_putc(uint8_t byte) {
    tx_buf[tx_head] = byte;
    tx_head = (uint8_t)((tx_head + 1) & (TX_RING - 1));
    UCSR0A |= _BV(TXC0);  /* writing 1 clears "transmit complete" */
    UCSR0B |= _BV(UDRIE0);
}

ISR(USART_UDRE_vect) {
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & (TX_RING - 1));
}

uint8_t hal_reset_cause(void) {
    if (reboot_marker == 0xA5) {
        reboot_marker = 0;
        return FB_RESETCAUSE_HOST_REQUEST;
    }
    if (mcusr_at_boot & _BV(PORF)) return FB_RESETCAUSE_POWER_ON;
    if (mcusr_at_boot & _BV(WDRF)) return FB_RESETCAUSE_WATCHDOG;
    if (mcusr_at_boot & _BV(BORF)) return FB_RESETCAUSE_BROWN_OUT;
    if (mcusr_at_boot & _BV(EXTRF)) return FB_RESETCAUSE_SOFTWARE;  /* reset button / DTR */
    return FB_RESETCAUSE_POWER_ON;
}

static uint32_t mix(uint32_t h, uint32_t v) {
    h ^= v + 0x9E3779B9UL + (h << 6) + (h >> 2);
    h ^= h >> 15;
    h *= 0x2C1B3C6DUL;
    h ^= h >> 12;
    return h;
}

uint32_t hal_entropy(void) {
    uint32_t h = 0x6A09E667UL;
    for (uint8_t i = 0; i < sizeof noise; i++) h = mix(h, noise[i]);
    /* ADC noise: the LSBs of the internal temperature sensor against the 1.1 V reference */
    ADMUX = _BV(REFS1) | _BV(REFS0) | 0x08;
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
    for (uint8_t i = 0; i < 16; i++) {
        ADCSRA |= _BV(ADSC);
        while (ADCSRA & _BV(ADSC)) {}
        h = mix(h, ADC);
    }
    ADCSRA = 0;
    /* the next boot starts from different RAM even when the cells are not random (a watchdog reset) */
    for (uint8_t i = 0; i < sizeof noise; i++) noise[i] ^= (uint8_t)(h >> (8 * (i & 3)));
    return h;
}

void hal_reboot(void) {
    reboot_marker = 0xA5;
    wdt_enable(WDTO_15MS);
    for (;;) {}
}

void hal_watchdog_kick(void) { wdt_reset(); }

#if defined(DEVICE_SHOE)
void spi_select(uint8_t on) {
    if (on) PORTB &= (uint8_t)~_BV(PB2);
    else PORTB |= _BV(PB2);
}

uint8_t spi_transfer(uint8_t out) {
    SPDR = out;
    uint16_t guard = 0;
    while (!(SPSR & _BV(SPIF))) {
        if (++guard == 0) return 0;  /* no reader fitted */
    }
    return SPDR;
}
#endif

#if defined(DEVICE_SHUFFLER)
volatile uint16_t counter_pulses;
volatile uint16_t counter_stop_at;

ISR(PCINT0_vect) {
    if (!(PINB & _BV(PB0))) {  /* falling edge: a card entered the beam */
        counter_pulses++;
        if (counter_stop_at && counter_pulses >= counter_stop_at) {
            DEAL_MOTOR_OFF();
            counter_stop_at = 0;
        }
    }
}
#endif

#if defined(DEVICE_REELS)
void reels_coils(uint8_t reel, uint8_t pattern) {
    if (reel == 0) {
        PORTD = (uint8_t)((PORTD & 0x0F) | (pattern << 4));
    } else if (reel == 1) {
        PORTB = (uint8_t)((PORTB & 0xF0) | pattern);
    } else {
        PORTC = (uint8_t)((PORTC & 0xF8) | (pattern & 0x07));
        if (pattern & 0x08) PORTB |= _BV(PB5);
        else PORTB &= (uint8_t)~_BV(PB5);
    }
}

void reels_timer_start(void) {
    /* Timer1 CTC at the step rate; the ISR lives in device_reels.c */
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11);  /* /8: 2 ticks per microsecond */
    OCR1A = (uint16_t)(2 * REEL_STEP_US - 1);
    TIMSK1 = _BV(OCIE1A);
}
#endif
