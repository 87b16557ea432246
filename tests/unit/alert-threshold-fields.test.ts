// The team page's thresholds form, pure: its text as settings, each field's error, and the
// forecast's seconds shown as minutes that turn back into the same seconds.
import { describe, expect, it } from 'vitest'
import {
  forecastMinutesText,
  parseThresholds,
  splitBytes,
  type ThresholdTexts,
} from '../../src/app/features/teams/alert-threshold-fields.ts'

const texts: ThresholdTexts = {
  amount: '1',
  unit: 'GiB',
  minutes: '5',
  forecastMinutes: '60',
}

describe('parseThresholds', () => {
  it('turns the text into settings, the forecast in seconds', () => {
    expect(parseThresholds(texts)).toEqual({
      amountError: null,
      minutesError: null,
      forecastError: null,
      settings: {
        wal_retained_threshold_bytes: 1024 ** 3,
        reconnecting_minutes: 5,
        wal_forecast_threshold_seconds: 3600,
      },
    })
    expect(
      parseThresholds({ ...texts, forecastMinutes: ' 1.5 ' }).settings
        ?.wal_forecast_threshold_seconds,
    ).toBe(90)
  })

  it('refuses a forecast threshold outside a minute to a week, or not a number', () => {
    for (const forecastMinutes of ['0', '0.99', '10081', 'soon', '', '1.234']) {
      const parsed = parseThresholds({ ...texts, forecastMinutes })
      expect(parsed.forecastError, forecastMinutes).toBe(
        'Enter minutes from 1 to 10080 (7 days)',
      )
      expect(parsed.settings).toBeNull()
    }
    expect(
      parseThresholds({ ...texts, forecastMinutes: '10080' }).forecastError,
    ).toBeNull()
  })

  it('still checks the other fields', () => {
    const parsed = parseThresholds({ ...texts, amount: 'lots', minutes: '0' })
    expect(parsed.amountError).toBe('Enter a whole number')
    expect(parsed.minutesError).toBe(
      'Enter a whole number of minutes from 1 to 1440',
    )
    expect(parsed.settings).toBeNull()
  })
})

describe('forecastMinutesText', () => {
  it('shows whole minutes as they are, and other seconds so they parse back the same', () => {
    expect(forecastMinutesText(3600)).toBe('60')
    expect(forecastMinutesText(90)).toBe('1.5')
    for (const seconds of [61, 91, 119, 3601, 604_799]) {
      const forecastMinutes = forecastMinutesText(seconds)
      expect(
        parseThresholds({ ...texts, forecastMinutes }).settings
          ?.wal_forecast_threshold_seconds,
        forecastMinutes,
      ).toBe(seconds)
    }
  })
})

describe('splitBytes', () => {
  it('picks the largest unit that keeps the amount whole', () => {
    expect(splitBytes(256 * 1024 ** 2)).toEqual({ amount: '256', unit: 'MiB' })
    expect(splitBytes(1000)).toEqual({ amount: '1000', unit: 'bytes' })
  })
})
