-- Io: you have taken three of your opponent's kings over the game. The planet
-- keeps its own tally (ctx:planet_data), which its handlers raise; check and
-- progress only read it.

local function crowned(checker)
  return checker.kind == "king" or checker.kind == "emperor"
end

local function taken(ctx)
  local data = ctx:planet_data()
  ctx:set_planet_data{ kings = (data.kings or 0) + 1 }
end

-- A capture is always by the other side's checker: a king of the opponent's
-- captured is one of yours taking it.
function on_captured(ctx, event, player)
  if event.checker.owner ~= player and crowned(event.checker) then
    taken(ctx)
  end
end

-- A removal counts when a card used in your turn made it (its cause says so).
function on_removed(ctx, event, player)
  if event.cause.by == "card" and event.player == player
      and event.checker.owner ~= player and crowned(event.checker) then
    taken(ctx)
  end
end

function check(ctx, player)
  return (ctx:planet_data().kings or 0) >= 3
end

function progress(ctx, player)
  return math.min((ctx:planet_data().kings or 0) / 3, 1)
end
