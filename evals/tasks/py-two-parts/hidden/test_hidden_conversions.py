import math

from temperature import celsius_to_fahrenheit, fahrenheit_to_celsius
from units import km_to_miles, miles_to_km


def test_fahrenheit_to_celsius():
    assert math.isclose(fahrenheit_to_celsius(212), 100)
    assert math.isclose(fahrenheit_to_celsius(32), 0, abs_tol=1e-12)
    assert math.isclose(fahrenheit_to_celsius(-40), -40)
    for c in (-17.5, 0.1, 37, 1000):
        assert math.isclose(fahrenheit_to_celsius(celsius_to_fahrenheit(c)), c)


def test_km_to_miles():
    assert math.isclose(km_to_miles(1.609344), 1)
    assert math.isclose(km_to_miles(100), 62.13711922373339)
    for miles in (0.5, 3, 26.2188):
        assert math.isclose(km_to_miles(miles_to_km(miles)), miles)
