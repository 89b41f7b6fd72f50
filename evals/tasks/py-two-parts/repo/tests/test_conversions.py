from temperature import celsius_to_fahrenheit
from units import miles_to_km


def test_celsius_to_fahrenheit():
    assert celsius_to_fahrenheit(100) == 212


def test_miles_to_km():
    assert miles_to_km(10) == 16.09344
