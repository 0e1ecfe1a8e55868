"""A rules set or paytable named with its version: how `name@version` is read and written."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules import Ref, RulesError

names = st.text(st.characters(blacklist_characters="@", blacklist_categories=("Cs",)), min_size=1)


def test_a_written_version_is_read_as_a_whole_number():
    assert Ref.parse("canberra@12") == Ref("canberra", 12)


def test_a_name_alone_is_version_one_the_file():
    assert Ref.parse("canberra-standard") == Ref("canberra-standard", 1)


def test_a_reference_is_written_with_its_version_even_when_it_is_one():
    assert str(Ref("canberra")) == "canberra@1"


@given(names, st.integers(min_value=1, max_value=10**9))
def test_what_is_written_reads_back_the_same(name, version):
    assert Ref.parse(str(Ref(name, version))) == Ref(name, version)


@pytest.mark.parametrize("written", ["canberra@", "canberra@two", "canberra@0", "canberra@-1", "canberra@1.5",
                                     "canberra@1@2", "@3", "", "canberra@\u0663"])
def test_a_reference_that_is_not_name_at_a_whole_number_from_one_is_refused(written):
    with pytest.raises(RulesError):
        Ref.parse(written)


@pytest.mark.parametrize("version", [0, -2, True])
def test_a_version_below_one_is_no_version(version):
    with pytest.raises(RulesError, match="whole number from 1"):
        Ref("canberra", version)
