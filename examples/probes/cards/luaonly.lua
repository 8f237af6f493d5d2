-- No host call: two small tables built and read, as a card's own Lua does.
function play(ctx)
  for _ = 1, 1000 do
    local row = {}
    for _, sq in ipairs({ "a8", "c8", "e8", "g8" }) do row[sq] = true end
    local movers = {}
    for _, sq in ipairs({ "a8", "c8", "e8", "g8", "b7", "d7", "f7", "h7", "a6", "c6", "e6", "g6" }) do
      if row[sq] then movers[#movers + 1] = sq end
    end
  end
end
